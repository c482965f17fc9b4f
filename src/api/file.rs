//! A file to download (a grocery list, recipes): its text, type and name.

use poem_openapi::ApiResponse;
use poem_openapi::payload::PlainText;

#[derive(ApiResponse)]
pub enum Exported {
    /// The file.
    #[oai(status = 200)]
    File(
        PlainText<String>,
        #[oai(header = "Content-Type")] String,
        #[oai(header = "Content-Disposition")] String,
    ),
}

impl Exported {
    /// `body` saved by the browser as `file` (a name without quotes or slashes).
    pub fn attachment(body: String, content_type: &str, file: &str) -> Exported {
        Exported::File(
            PlainText(body),
            content_type.into(),
            format!("attachment; filename=\"{file}\""),
        )
    }
}
