//! Computer players for Chaupar (in progress).
