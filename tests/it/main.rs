//! The single integration-test binary (`autotests = false`).

mod naruto;
