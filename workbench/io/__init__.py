"""Reading and writing the Director's files safely: size and depth limits, atomic writes, no path escapes."""
