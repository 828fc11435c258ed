// The chat log as each user's Foundry shows it, for the eye and for a screenshot
// (docs/foundry-dice.png): Foundry's sidebar lists the messages a user may see
// (ChatMessage#visible: public, whispered to them, theirs, or they are a GM); a roll message
// shows its flavor and its dice total, a blind roll's content only to GMs ("???" else: api v13
// ChatMessage#isContentVisible, "the message itself may be visible while the content of that
// message is not"). Not Foundry's look, only what each user is given to see.

const STYLE = `
#chat-log { display: inline-flex; gap: 12px; padding: 8px; background: #e9e6dc; font-size: 13px; }
#chat-log .bb-chat-column { width: 330px; }
#chat-log h2 { font-size: 14px; margin: 0 0 6px; }
#chat-log ol { list-style: none; margin: 0; padding: 0; }
#chat-log .chat-message { background: #fffdf6; border: 1px solid #b5b3a4; border-radius: 4px;
  margin: 0 0 6px; padding: 4px 6px; }
#chat-log .chat-message.whisper { border-color: #6a3d9a; background: #f5effa; }
#chat-log .message-header { font-weight: bold; font-size: 12px; color: #444; }
#chat-log .whisper-to { font-weight: normal; font-style: italic; color: #6a3d9a; }
#chat-log .flavor-text { font-size: 12px; color: #555; }
#chat-log .dice-roll { text-align: center; border: 1px solid #999; border-radius: 3px; margin: 3px 0;
  padding: 2px; }
#chat-log .dice-formula { font-size: 11px; color: #666; }
#chat-log .dice-total { font-size: 18px; font-weight: bold; }
#chat-log h3 { font-size: 13px; margin: 2px 0; }
#chat-log p { margin: 2px 0; }
`;

function messageHtml(message, user) {
  const li = document.createElement("li");
  const whisper = message.whisper?.length;
  li.className = `chat-message${whisper ? " whisper" : ""}`;
  const header = document.createElement("div");
  header.className = "message-header";
  header.textContent = message.speaker?.alias ?? "";
  if (whisper) {
    const to = document.createElement("span");
    to.className = "whisper-to";
    to.textContent = ` → ${message.whisper.map((id) => game.users.get(id)?.name).join(", ")}${message.blind ? " (blind)" : ""}`;
    header.append(to);
  }
  li.append(header);
  if (message.flavor) {
    const flavor = document.createElement("div");
    flavor.className = "flavor-text";
    flavor.textContent = message.flavor;
    li.append(flavor);
  }
  const body = document.createElement("div");
  body.className = "message-content";
  if (message.blind && !user.isGM) body.textContent = "???";
  else if (message.rolls?.length) {
    for (const raw of message.rolls) {
      const roll = JSON.parse(raw);
      body.insertAdjacentHTML(
        "beforeend",
        `<div class="dice-roll"><div class="dice-formula">${roll.formula}</div><div class="dice-total">${roll.total}</div></div>`,
      );
    }
  } else body.innerHTML = message.content;
  li.append(body);
  // hookEvents.renderChatMessageHTML(message, html, context) (api v13/v14): the pending HTML
  Hooks.callAll("renderChatMessageHTML", message, li, {});
  return li;
}

/** Draws, side by side, the chat log each of these users sees; returns the element. */
window.StandIn.chatLog = (userIds) => {
  document.getElementById("chat-log")?.remove();
  if (!document.getElementById("chat-log-style")) {
    const style = document.createElement("style");
    style.id = "chat-log-style";
    style.textContent = STYLE;
    document.head.append(style);
  }
  const log = document.createElement("section");
  log.id = "chat-log";
  for (const id of userIds) {
    const user = game.users.get(id);
    const column = document.createElement("div");
    column.className = "bb-chat-column";
    column.dataset.user = id;
    column.innerHTML = `<h2></h2><ol></ol>`;
    column.querySelector("h2").textContent = `${user.name} sees`;
    for (const message of game.messages.contents.filter((m) => m.visibleTo(user))) {
      column.querySelector("ol").append(messageHtml(message, user));
    }
    log.append(column);
  }
  document.body.prepend(log);
  return log;
};
