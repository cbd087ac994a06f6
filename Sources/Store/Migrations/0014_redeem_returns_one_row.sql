-- `redeem_token` returns exactly one row, but a PL/pgSQL set-returning function is estimated at
-- 1,000. A batch of redemptions (`unnest(…) CROSS JOIN LATERAL redeem_token(…)`, with the owner's
-- card looked up per row) was therefore costed at about 9,500 per redemption, so a custom plan of a
-- batch of 11 or more crossed `jit_above_cost` (100,000), and PostgreSQL compiled it with LLVM on
-- every execution: 17 ms for a batch of 24 that ran in 5 ms, and a third of PostgreSQL's CPU in a
-- profile at 64 clients. Whether it happened depended on the plans the connection had cached,
-- which is why the same load ran at very different speeds. Estimated at one row, a batch of 24
-- costs about 230, and nothing is compiled.
ALTER FUNCTION redeem_token ROWS 1;
