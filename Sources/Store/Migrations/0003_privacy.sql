-- An attendee's privacy controls.
--
-- `POST /v1/me/qr/reset` revokes every token the profile has shown: a token whose `iat` lies
-- before `tokens_valid_from` is refused when redeemed. Tokens carry `iat` to the second, so the
-- reset sets it to the whole second after the reset, and new tokens are issued no earlier than
-- it: a token from the reset's own second is revoked if it was issued before the reset and
-- valid if after. NULL: no reset yet, every unexpired token counts.
ALTER TABLE profiles ADD COLUMN tokens_valid_from timestamptz;
