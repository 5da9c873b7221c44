//! analytics module
