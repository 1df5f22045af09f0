-- The logbook's fold changed (core/equipment-status foldLogbook, provesUnclean): an entry whose
-- predecessor a correction voided now counts when it shows the item less clean than its state.
-- The folds kept by the write path were made by the earlier rule; they are derived data only, and
-- a read that finds no kept fold folds the log itself, so they are dropped rather than trusted.
-- The write path keeps each item's fold again at its next entry.
delete from equipment_status;
