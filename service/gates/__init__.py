"""Content gates applied before memory writes (threat scan, quality gate)."""
