# One line per file, so that a file can be added with a single append.
