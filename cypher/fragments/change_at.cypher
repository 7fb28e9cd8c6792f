// ChangeAt(locked): the instant a change of one record is stamped with (its revision's or event's `at`, its new
// updated_at, a tombstone's removed_at). The call's $now, unless the record's last change (updated_at, read after
// the write lock into `locked`) is not earlier: then a microsecond after it. A write takes $now before it waits for
// the lock, so without this a change that committed after another could carry an earlier time, and the record as
// it was at an instant (known_at, docs/time.md) would be read from the wrong revision. Per record, changes in
// commit order have increasing times. An expression over the map `locked`; $now a DateTime.
CASE WHEN locked.updated_at >= $now THEN locked.updated_at + duration({microseconds: 1}) ELSE $now END
