"""Verbatim copies of the threat scan, the learned detector and the literal prefilter as they were before the
speed-up (main at 163c421: service/gates/threat.py, detector.py, literals.py), for
tests/unit/test_scan_equivalence.py to hold the fast code to. Changed only where they import each other and where
the detector finds its model (the committed service/gates/detector_model.json)."""
