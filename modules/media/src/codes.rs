//! The error codes media answers with (uploads, magazine issues and educational packs), besides
//! kernel's `Common` ones. `app` joins every module's into the contract's one `ErrorCode` (see
//! `kernel::error::register_codes`).

use kernel::{ModuleCode, Refusal};

#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::EnumIter)]
#[strum(serialize_all = "snake_case")]
pub enum Code {
    TitleTooLong,
    DescriptionRequired,
    InvalidDate,
    PackFileMissing,
    ImageTooLarge,
    ImageTooManyPixels,
    NotAnImage,
    NotAPdf,
    UploadFailed,
    DuplicateUpload,
}

impl ModuleCode for Code {
    fn refusal(self) -> Refusal {
        match self {
            Code::NotAnImage | Code::NotAPdf => Refusal::Unsupported,
            _ => Refusal::Invalid,
        }
    }
}
