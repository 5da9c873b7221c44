-- The one-click unsubscribe address of a list email (RFC 8058), sent as its List-Unsubscribe
-- header. It carries a token, so it is removed with the body once the message is delivered.
ALTER TABLE outbox ADD COLUMN list_unsubscribe TEXT;
