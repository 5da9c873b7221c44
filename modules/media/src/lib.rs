//! media module
