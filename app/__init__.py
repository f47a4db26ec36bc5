"""firestep's web service."""
