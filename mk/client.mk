# The one JavaScript client of the bridge (foundry-module/client/, docs/client.md): node tests.
#   make test-client   -> node --test tests/client/

.PHONY: test-client

test-client: node
	$(CLOCK) client -- node --test tests/client/

TEST_TARGETS += test-client
