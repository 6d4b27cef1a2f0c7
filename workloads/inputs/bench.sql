-- SQLite workload for wpp: an in-memory database built and queried with
-- plain SQL.  Its size comes from a table the runner creates first:
--   sqlite -cmd "CREATE TABLE scale AS SELECT 200000 AS n" < bench.sql
-- Everything is deterministic: data comes from a linear congruential
-- generator in a recursive CTE; no random(), no clock.

PRAGMA cache_size = -65536;

CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, region TEXT NOT NULL,
                       tier INTEGER NOT NULL, profile TEXT NOT NULL);
CREATE TABLE orders(id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
                    day INTEGER NOT NULL, amount REAL NOT NULL, qty INTEGER NOT NULL, note TEXT);

-- customers: n / 20 rows
WITH RECURSIVE gen(i, r) AS (
  SELECT 1, 12345
  UNION ALL
  SELECT i + 1, (r * 1103515245 + 12345) % 2147483648 FROM gen
  WHERE i < (SELECT n FROM scale) / 20
)
INSERT INTO customers
SELECT i,
       'customer-' || printf('%06d', i),
       CASE r % 5 WHEN 0 THEN 'north' WHEN 1 THEN 'south' WHEN 2 THEN 'east' WHEN 3 THEN 'west' ELSE 'central' END,
       1 + (r / 7) % 4,
       json_object('since', 2000 + (r / 11) % 24, 'tags', json_array('t' || (r % 13), 't' || (r / 13 % 17)),
                   'score', (r % 1000) / 10.0)
FROM gen;

-- orders: n rows
WITH RECURSIVE gen(i, r) AS (
  SELECT 1, 67890
  UNION ALL
  SELECT i + 1, (r * 1103515245 + 12345) % 2147483648 FROM gen
  WHERE i < (SELECT n FROM scale)
)
INSERT INTO orders
SELECT i,
       1 + (r / 3) % ((SELECT n FROM scale) / 20),
       (r / 101) % 365,
       round(((r / 17) % 100000) / 100.0, 2),
       1 + (r / 5) % 9,
       CASE WHEN r % 4 = 0 THEN NULL
            ELSE 'order ' || i || ' ' ||
                 CASE r % 6 WHEN 0 THEN 'express delivery requested'
                            WHEN 1 THEN 'gift wrap with card'
                            WHEN 2 THEN 'standard shipping'
                            WHEN 3 THEN 'customer asked for invoice'
                            WHEN 4 THEN 'fragile handle with care'
                            ELSE 'backorder express when available' END
       END
FROM gen;

CREATE INDEX orders_customer ON orders(customer_id);
CREATE INDEX orders_day ON orders(day, amount);

SELECT 'counts', (SELECT count(*) FROM customers), (SELECT count(*) FROM orders),
       (SELECT count(*) FROM orders WHERE note IS NULL);

-- aggregation with a join
SELECT 'region', c.region, count(*), round(sum(o.amount), 2), round(avg(o.qty), 4)
FROM orders o JOIN customers c ON c.id = o.customer_id
GROUP BY c.region ORDER BY c.region;

-- top customers by spend, with window functions
SELECT 'top', id, name, spend, rnk, running
FROM (
  SELECT c.id, c.name, round(sum(o.amount), 2) AS spend,
         rank() OVER (ORDER BY sum(o.amount) DESC, c.id) AS rnk,
         round(sum(sum(o.amount)) OVER (ORDER BY sum(o.amount) DESC, c.id ROWS UNBOUNDED PRECEDING), 2) AS running
  FROM customers c JOIN orders o ON o.customer_id = c.id
  GROUP BY c.id
)
WHERE rnk <= 10 ORDER BY rnk;

-- moving average per day
SELECT 'days', count(*), round(max(ma), 4), round(min(ma), 4)
FROM (
  SELECT day, avg(total) OVER (ORDER BY day ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS ma
  FROM (SELECT day, sum(amount) AS total FROM orders GROUP BY day)
);

-- per-tier percentiles via ntile
SELECT 'ntile', tier, bucket, count(*), round(min(amount), 2), round(max(amount), 2)
FROM (
  SELECT c.tier, o.amount, ntile(4) OVER (PARTITION BY c.tier ORDER BY o.amount, o.id) AS bucket
  FROM orders o JOIN customers c ON c.id = o.customer_id
)
GROUP BY tier, bucket ORDER BY tier, bucket;

-- JSON: extract, each, aggregate
SELECT 'json', json_extract(profile, '$.since') AS since, count(*),
       round(avg(json_extract(profile, '$.score')), 4)
FROM customers GROUP BY since ORDER BY since LIMIT 5;

SELECT 'tags', t.value, count(*)
FROM customers, json_each(customers.profile, '$.tags') AS t
GROUP BY t.value ORDER BY count(*) DESC, t.value LIMIT 5;

SELECT 'json_group', length(json_group_array(json_object('id', id, 'tier', tier)))
FROM customers WHERE id % 50 = 0;

-- full-text search
CREATE VIRTUAL TABLE notes USING fts5(note, content='orders', content_rowid='id');
INSERT INTO notes(rowid, note) SELECT id, note FROM orders WHERE note IS NOT NULL;
SELECT 'fts', count(*) FROM notes WHERE notes MATCH 'express';
SELECT 'fts', count(*) FROM notes WHERE notes MATCH 'gift AND card';
SELECT 'fts', count(*) FROM notes WHERE notes MATCH '"handle with care"';
SELECT 'fts_top', rowid FROM notes WHERE notes MATCH 'backorder' ORDER BY rank, rowid LIMIT 3;

-- recursive CTE: walk a chain through customers
WITH RECURSIVE chain(id, depth) AS (
  SELECT 1, 0
  UNION ALL
  SELECT (id * 7 + 3) % ((SELECT n FROM scale) / 20) + 1, depth + 1 FROM chain WHERE depth < 2000
)
SELECT 'chain', count(DISTINCT id), max(depth), sum(id) FROM chain;

-- updates and deletes with subqueries
UPDATE orders SET amount = round(amount * 1.1, 2)
WHERE customer_id IN (SELECT id FROM customers WHERE tier = 4);
DELETE FROM orders WHERE qty = 9 AND day % 3 = 0;
SELECT 'after', count(*), round(sum(amount), 2) FROM orders;

-- correlated subquery and string functions
SELECT 'corr', c.region, count(*)
FROM customers c
WHERE (SELECT max(o.amount) FROM orders o WHERE o.customer_id = c.id) > 900
GROUP BY c.region ORDER BY c.region;

SELECT 'strings', count(*), sum(length(upper(name))), max(substr(name, 10)), min(replace(name, '0', ''))
FROM customers;

SELECT 'integrity', (SELECT * FROM pragma_integrity_check);
