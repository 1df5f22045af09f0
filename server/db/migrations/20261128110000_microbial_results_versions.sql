-- Microbial results have a version column but their migration never kept their versions: a
-- correction then left no trace in record_versions and as-of reads (annual summary, run report)
-- saw today's value. Keep them, with one version of each row that exists now.
select keep_record_versions('microbial_results');
