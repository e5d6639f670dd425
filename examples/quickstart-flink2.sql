-- Sluice quickstart for the Flink 2.1 distribution: quickstart.sql without its Hive part (the
-- hive plugin is not in the Flink 2 distribution yet). It generates 5000 orders with Flink's
-- built-in 'datagen' connector and writes them twice through Sluice's filesystem target, as
-- partitioned Parquet and as plain CSV, then reads both back.
--
--   bin/sluice sql -f examples/quickstart-flink2.sql
--
-- Output goes under /tmp/sluice-quickstart; -D lake=s3://my-bucket/quickstart writes to a bucket
-- instead (docs/storage.md). Running the script again adds new part files next to the old ones.

-- batch: the bounded input ends, every file is committed at the end of the job
SET 'execution.runtime-mode' = 'batch';

-- 5000 rows: order_id 1..5000, random customers and amounts
CREATE TEMPORARY TABLE orders_gen (
  order_id BIGINT,
  customer STRING,
  amount   DECIMAL(10, 2),
  ts       TIMESTAMP(3)
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '5000',
  'fields.order_id.kind' = 'sequence',
  'fields.order_id.start' = '1',
  'fields.order_id.end' = '5000',
  'fields.customer.length' = '8',
  'fields.amount.min' = '1',
  'fields.amount.max' = '500'
);

-- Parquet, one directory per day: dt=2024-06-01 ... dt=2024-06-03. When a partition is complete
-- the success-file policy writes an empty _SUCCESS file into it.
CREATE TEMPORARY TABLE orders_parquet (
  order_id BIGINT,
  customer STRING,
  amount   DECIMAL(10, 2),
  ts       TIMESTAMP(3),
  dt       STRING
) PARTITIONED BY (dt) WITH (
  'connector' = 'sluice',
  'target' = 'filesystem',
  'path' = '${lake:-/tmp/sluice-quickstart}/orders_parquet',
  'format' = 'parquet',
  'sink.partition-commit.policy.kind' = 'success-file'
);

-- CSV, unpartitioned: one line per order
CREATE TEMPORARY TABLE orders_csv (
  order_id BIGINT,
  customer STRING,
  amount   DECIMAL(10, 2),
  ts       TIMESTAMP(3)
) WITH (
  'connector' = 'sluice',
  'target' = 'filesystem',
  'path' = '${lake:-/tmp/sluice-quickstart}/orders_csv',
  'format' = 'csv',
  'sink.part-file.suffix' = '.csv'
);

-- one job writes both tables from the same generated rows
EXECUTE STATEMENT SET
BEGIN
  INSERT INTO orders_parquet
  SELECT order_id, customer, amount, ts, CONCAT('2024-06-0', CAST(order_id % 3 + 1 AS STRING)) AS dt
  FROM orders_gen;

  INSERT INTO orders_csv
  SELECT order_id, customer, amount, ts
  FROM orders_gen;
END;

-- read both tables back through Sluice's file source: rows per partition, and the csv total
SELECT dt, COUNT(*) AS orders, SUM(amount) AS total FROM orders_parquet GROUP BY dt ORDER BY dt;

SELECT COUNT(*) AS orders FROM orders_csv;
