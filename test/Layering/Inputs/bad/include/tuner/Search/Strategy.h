// A header of Search.
