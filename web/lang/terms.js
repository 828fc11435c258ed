// The rule's own terms, English and Russian (docs/rules.md §1; the Russian as the source writes
// them: SL stays SL). Every label and heading shows the page's language only.
export const TERMS = {
  background_battle: { en: "Background battle", ru: "Фоновый бой" },
  pcs: { en: "player characters", ru: "персонажи игроков" },
  allies: { en: "Allies", ru: "Союзники" },
  enemies: { en: "Enemies", ru: "Противники" },
  side: { en: "Side", ru: "Сторона" },
  unit: { en: "Unit", ru: "Отряд" },
  fighters: { en: "Fighters", ru: "Бойцы" },
  strength: { en: "Strength", ru: "Очки силы" },
  initial_strength: { en: "Initial strength S0", ru: "Итоговые начальные ОС" },
  sl: { en: "SL", ru: "SL" },
  killed: { en: "killed", ru: "убиты" },
  wounded: { en: "wounded", ru: "ранены" },
  fit: { en: "fit", ru: "готовы к бою" },
  casualties: { en: "Casualties", ru: "Потери" },
  leader_command: { en: "Leader's command", ru: "Проверка командования" },
  influence: { en: "Influence of the battle", ru: "Влияние фонового боя" },
  round: { en: "Round", ru: "Раунд" },
  size: { en: "Size", ru: "Размер" },
  modifiers: { en: "Modifiers", ru: "Модификаторы" },
};
