//! Documents applicants attach: PDF, Word 97-2003 (.doc) or Word (.docx), recognised by their
//! content, not by the name or the type the browser declared.

use std::io::{Read, Seek, SeekFrom};

/// Largest file accepted, per file.
pub const MAX_DOCUMENT_BYTES: usize = 10 * 1024 * 1024;
/// Documents one application may carry (CV, portfolio, writing and research samples).
pub const DOCUMENTS_PER_APPLICATION: usize = 4;
/// The largest application request: every document at its limit, plus a megabyte for the
/// text fields and the multipart envelope.
pub const MAX_APPLICATION_BODY_BYTES: u64 =
    (DOCUMENTS_PER_APPLICATION * MAX_DOCUMENT_BYTES) as u64 + 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    Pdf,
    Doc,
    Docx,
}

impl DocumentKind {
    pub fn extension(self) -> &'static str {
        match self {
            DocumentKind::Pdf => "pdf",
            DocumentKind::Doc => "doc",
            DocumentKind::Docx => "docx",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            DocumentKind::Pdf => "application/pdf",
            DocumentKind::Doc => "application/msword",
            DocumentKind::Docx => {
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
            }
        }
    }

    fn from_extension(name: &str) -> Option<DocumentKind> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "pdf" => Some(DocumentKind::Pdf),
            "doc" => Some(DocumentKind::Doc),
            "docx" => Some(DocumentKind::Docx),
            _ => None,
        }
    }

    /// Whether the document read from `file` (whose first bytes are `head`) is of this kind.
    fn matches<R: Read + Seek>(self, head: &[u8], file: &mut R) -> std::io::Result<bool> {
        Ok(match self {
            DocumentKind::Pdf => kernel::upload::is_pdf(head),
            DocumentKind::Docx => infer::doc::is_docx(head),
            // Word 97-2003 files are OLE2 compound files with a "WordDocument" stream; some
            // writers leave the root CLSID empty, so the stream name is accepted too.
            DocumentKind::Doc => {
                head.starts_with(&OLE2_MAGIC) && (is_word_compound(file)? || has_word_stream(file)?)
            }
        })
    }
}

const OLE2_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
/// The Word document CLSID of an OLE2 root entry.
const WORD_CLSID: &str = "00020906-0000-0000-c000-000000000046";

/// The compound file's root entry has Word's CLSID (reading only the sectors it needs).
fn is_word_compound<R: Read + Seek>(file: &mut R) -> std::io::Result<bool> {
    file.seek(SeekFrom::Start(0))?;
    Ok(cfb::CompoundFile::open(&mut *file)
        .is_ok_and(|c| c.root_entry().clsid().to_string() == WORD_CLSID))
}

/// The file names a "WordDocument" stream somewhere (read in chunks, never whole).
fn has_word_stream<R: Read + Seek>(file: &mut R) -> std::io::Result<bool> {
    const NAME: &[u8] = b"W\0o\0r\0d\0D\0o\0c\0u\0m\0e\0n\0t\0";
    file.seek(SeekFrom::Start(0))?;
    let mut buf = vec![0u8; 64 * 1024 + NAME.len()];
    // Bytes carried over from the previous chunk, so a name split between two is found.
    let mut carried = 0;
    loop {
        let n = file.read(&mut buf[carried..])?;
        if n == 0 {
            return Ok(false);
        }
        let filled = carried + n;
        if buf[..filled].windows(NAME.len()).any(|w| w == NAME) {
            return Ok(true);
        }
        carried = (NAME.len() - 1).min(filled);
        buf.copy_within(filled - carried..filled, 0);
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocumentError {
    /// The name does not end in .pdf, .doc or .docx, or the content is something else.
    NotADocument,
    TooLarge,
    Empty,
}

/// The kind of document `file` is (`size` bytes, `head` its first bytes, at least
/// [`kernel::upload::HEAD_BYTES`] of them when it has that many), requiring the name's extension and the
/// content to agree. Reads the file in small pieces only.
pub fn check_document<R: Read + Seek>(
    file_name: &str,
    size: u64,
    head: &[u8],
    file: &mut R,
) -> Result<DocumentKind, DocumentError> {
    if size == 0 {
        return Err(DocumentError::Empty);
    }
    if size > MAX_DOCUMENT_BYTES as u64 {
        return Err(DocumentError::TooLarge);
    }
    let kind = DocumentKind::from_extension(file_name).ok_or(DocumentError::NotADocument)?;
    match kind.matches(head, file) {
        Ok(true) => Ok(kind),
        // An unreadable file is not a document we can pass on.
        Ok(false) | Err(_) => Err(DocumentError::NotADocument),
    }
}

/// A name safe to show in an email: the last path segment, printable characters only, at most
/// 100 characters, always ending in the checked extension.
pub fn display_name(file_name: &str, kind: DocumentKind, fallback: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or_default();
    let stem = base.rsplit_once('.').map(|(s, _)| s).unwrap_or(base);
    let clean: String = stem
        .chars()
        .filter(|c| !c.is_control() && !matches!(c, '"' | '<' | '>' | ':' | '*' | '?' | '|'))
        .take(100)
        .collect();
    let clean = clean.trim().trim_start_matches('.');
    let stem = if clean.is_empty() { fallback } else { clean };
    format!("{stem}.{}", kind.extension())
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use kernel::upload::HEAD_BYTES;

    fn check(name: &str, bytes: &[u8]) -> Result<DocumentKind, DocumentError> {
        let head = &bytes[..bytes.len().min(HEAD_BYTES)];
        check_document(
            name,
            bytes.len() as u64,
            head,
            &mut std::io::Cursor::new(bytes),
        )
    }

    pub fn pdf() -> Vec<u8> {
        b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
            .to_vec()
    }

    /// A zip whose first entry is `word/document.xml`, as Word writes it.
    pub fn docx() -> Vec<u8> {
        let name = b"word/document.xml";
        let data = b"<w:document/>";
        let mut out = Vec::new();
        out.extend_from_slice(b"PK\x03\x04");
        out.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        out.extend_from_slice(&[0, 0, 0, 0]); // crc (not checked)
        out.extend_from_slice(&u32::try_from(data.len()).unwrap_or(0).to_le_bytes());
        out.extend_from_slice(&u32::try_from(data.len()).unwrap_or(0).to_le_bytes());
        out.extend_from_slice(&u16::try_from(name.len()).unwrap_or(0).to_le_bytes());
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(name);
        out.extend_from_slice(data);
        out
    }

    pub fn doc() -> Vec<u8> {
        let mut out = OLE2_MAGIC.to_vec();
        out.extend_from_slice(&[0; 504]);
        out.extend_from_slice(b"R\0o\0o\0t\0 \0E\0n\0t\0r\0y\0");
        out.extend_from_slice(b"W\0o\0r\0d\0D\0o\0c\0u\0m\0e\0n\0t\0");
        out
    }

    #[test]
    fn real_documents_are_accepted_by_content_and_name() {
        assert_eq!(check("cv.pdf", &pdf()), Ok(DocumentKind::Pdf));
        assert_eq!(check("CV.PDF", &pdf()), Ok(DocumentKind::Pdf));
        assert_eq!(check("essay.docx", &docx()), Ok(DocumentKind::Docx));
        assert_eq!(check("old.doc", &doc()), Ok(DocumentKind::Doc));
    }

    #[test]
    fn a_name_alone_is_not_enough() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        assert_eq!(check("cv.pdf", &png), Err(DocumentError::NotADocument));
        assert_eq!(check("cv.docx", &pdf()), Err(DocumentError::NotADocument));
        assert_eq!(
            check("cv.doc", b"plain text"),
            Err(DocumentError::NotADocument)
        );
        assert_eq!(check("cv.exe", &pdf()), Err(DocumentError::NotADocument));
        assert_eq!(check("cv", &pdf()), Err(DocumentError::NotADocument));
        assert_eq!(check("cv.pdf", b""), Err(DocumentError::Empty));
    }

    #[test]
    fn over_ten_megabytes_is_refused() {
        let mut big = pdf();
        big.resize(MAX_DOCUMENT_BYTES + 1, b' ');
        assert_eq!(check("cv.pdf", &big), Err(DocumentError::TooLarge));
        big.truncate(MAX_DOCUMENT_BYTES);
        assert_eq!(check("cv.pdf", &big), Ok(DocumentKind::Pdf));
    }

    #[test]
    fn a_word_stream_name_is_found_anywhere_even_across_chunks() {
        for at in [600, 64 * 1024 - 5, 64 * 1024 + 7, 300 * 1024] {
            let mut d = OLE2_MAGIC.to_vec();
            d.resize(at, 0);
            d.extend_from_slice(b"W\0o\0r\0d\0D\0o\0c\0u\0m\0e\0n\0t\0");
            d.resize(at + 1000, 0);
            assert_eq!(check("old.doc", &d), Ok(DocumentKind::Doc), "{at}");
        }
        let mut d = OLE2_MAGIC.to_vec();
        d.resize(200 * 1024, 0);
        assert_eq!(check("old.doc", &d), Err(DocumentError::NotADocument));
    }

    #[test]
    fn shown_names_cannot_carry_paths_or_odd_characters() {
        let k = DocumentKind::Pdf;
        assert_eq!(display_name("../../etc/passwd.pdf", k, "cv"), "passwd.pdf");
        assert_eq!(
            display_name("C:\\Users\\me\\My CV.PDF", k, "cv"),
            "My CV.pdf"
        );
        assert_eq!(display_name("\u{0}\n.pdf", k, "cv"), "cv.pdf");
        assert_eq!(display_name("a<b>\"c\".pdf", k, "cv"), "abc.pdf");
    }
}
