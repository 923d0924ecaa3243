"""Item pipelines: cluster pages by template, revise noise labels, store blocks in SQL."""
