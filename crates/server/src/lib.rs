//! The Chaupar server (in progress).
