//! A family's records: children, meals and photos. These services check ownership and
//! cross-references, then call the repositories; the API handlers only translate.

pub mod children;
pub mod meals;
pub mod photos;
