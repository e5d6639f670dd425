-- Sluice quickstart: generate 5000 orders with Flink's built-in 'datagen' connector and write
-- them twice through Sluice's filesystem target, as partitioned Parquet and as plain CSV, then
-- once more through the hive target into a partitioned Hive table on an embedded metastore.
--
--   bin/sluice sql -f examples/quickstart.sql
--
-- Output goes under /tmp/sluice-quickstart. Running the script again adds new part files next to
-- the old ones (INSERT INTO appends); delete the directory to start over.
--
-- On an object store, the tables' files go to a bucket and the metastore stays local (with Flink's
-- S3 file system and the s3.* keys set up as docs/storage.md shows):
--
--   bin/sluice sql -f examples/quickstart.sql -D lake=s3://my-bucket/quickstart

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

-- Hive: a catalog on an embedded metastore (Derby, under /tmp/sluice-quickstart/hive-metastore), a
-- partitioned Parquet Hive table in it whose files live next to the other tables' (its location),
-- and the same orders written through the hive target. The metastore policy adds each partition
-- the job writes to the metastore.
CREATE CATALOG hive WITH (
  'type' = 'sluice',
  'target' = 'hive',
  'metastore' = 'embedded',
  'metastore.dir' = '${metastore:-/tmp/sluice-quickstart/hive-metastore}'
);

CREATE DATABASE IF NOT EXISTS hive.shop;

CREATE TABLE IF NOT EXISTS hive.shop.orders (
  order_id BIGINT,
  customer STRING,
  amount   DECIMAL(10, 2),
  dt       STRING
) PARTITIONED BY (dt) WITH (
  'hive.storage.file-format' = 'parquet',
  'hive.location-uri' = '${lake:-/tmp/sluice-quickstart}/hive/orders',
  'sink.partition-commit.policy.kind' = 'metastore'
);

INSERT INTO hive.shop.orders
SELECT order_id, customer, amount, CONCAT('2024-06-0', CAST(order_id % 3 + 1 AS STRING)) AS dt
FROM orders_gen;

-- the partitions the metastore now has
SHOW PARTITIONS hive.shop.orders;

-- and the rows, read back from the table's files (Hive's layout: dt=... directories) by Sluice's
-- file source
CREATE TEMPORARY TABLE orders_hive_files (
  order_id BIGINT,
  customer STRING,
  amount   DECIMAL(10, 2),
  dt       STRING
) PARTITIONED BY (dt) WITH (
  'connector' = 'sluice',
  'target' = 'filesystem',
  'path' = '${lake:-/tmp/sluice-quickstart}/hive/orders',
  'format' = 'parquet'
);

SELECT dt, COUNT(*) AS orders, SUM(amount) AS total FROM orders_hive_files GROUP BY dt ORDER BY dt;
