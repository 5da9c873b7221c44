//! The API, page and store tests, as one test binary: one link instead of one per file, and
//! the tests of every file share the test threads. (The upload memory tests stay binaries of
//! their own: each measures its process.)
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

#[macro_use]
#[path = "../common/mod.rs"]
mod common;
#[path = "../upload_support/mod.rs"]
mod upload_support;

mod admin;
mod announcements;
mod api;
mod authors;
mod bulk;
mod categories;
mod cluster;
mod conformance;
mod digest;
mod feed;
mod forms;
mod hardening_edge;
mod hardening_identity;
mod hardening_outbox;
mod hardening_slugs;
mod hardening_upload;
mod hardening_views;
mod http_caching;
mod live_edits;
mod magazine_issues;
mod newsroom;
mod outreach;
mod packs;
mod page_cache;
mod pages;
mod readers;
mod related;
mod responses;
mod search;
mod social;
mod staff;
mod storage;
