-- Athena table over the partitions contract-gate publishes for orders 1.2.0.
-- Generated from the contract: edit the contract, not this file.
-- Replace ${BUCKET} with the gate's bucket.
CREATE EXTERNAL TABLE IF NOT EXISTS `orders_v1` (
  `order_id` STRING,
  `status` STRING,
  `amount` DECIMAL(12,2),
  `refund_amount` DOUBLE,
  `ordered_at` TIMESTAMP,
  `updated_at` TIMESTAMP,
  `coupon` STRING
)
COMMENT 'One row per order, as of the end of the partition day.'
PARTITIONED BY (`dt` STRING)
STORED AS PARQUET
LOCATION 's3://${BUCKET}/published/orders/v1/'
TBLPROPERTIES (
  'projection.enabled' = 'true',
  'projection.dt.type' = 'date',
  'projection.dt.format' = 'yyyy-MM-dd',
  'projection.dt.range' = 'NOW-3YEARS,NOW',
  'projection.dt.interval' = '1',
  'projection.dt.interval.unit' = 'DAYS',
  'storage.location.template' = 's3://${BUCKET}/published/orders/v1/dt=${dt}/'
);
