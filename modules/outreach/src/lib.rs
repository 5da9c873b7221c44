//! outreach module
