# One line per test, so that a test can be added with a single append.
