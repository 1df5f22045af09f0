-- The product batch of a run's cleaning event: the batch of the product made on the equipment
-- before the cleaning the run verifies (issue 30). A sample result's own number stays apart
-- (sample_results.batch_number, unique across the facility's samples).
alter table study_runs add column product_batch text;
