-- 0009: held for the schema step of another change; it changes nothing.
SELECT 1;
