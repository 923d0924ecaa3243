"""The seed papers' segmentation and noise-removal methods, each selectable by name (see `base.Method`)."""
