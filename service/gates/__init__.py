"""The write pipeline's screening (pipeline.py): the threat scan (threat.py, literals.py, normal.py), the learned
injection detector (detector.py), the content-quality gate (quality.py) and provenance (provenance.py)."""
