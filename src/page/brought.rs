//! A file the user brought, and the page that opens it.

/// Reads a file that a brought file names by a relative path, at most the given number
/// of bytes: from its folder on the desktop, from the files dropped with it in the
/// browser. Returns the bytes, or why not.
pub type Beside<'a> = dyn Fn(&str, usize) -> Result<Vec<u8>, String> + 'a;

/// A file the user brought (dropped on the window, chosen in a dialog or named with
/// `--open`), and how to read the files it names beside itself (a `.gltf`'s `.bin`).
pub struct Brought<'a> {
    /// Its file name, for messages; its extension says which page opens it.
    pub name: &'a str,
    /// Its contents.
    pub bytes: &'a [u8],
    /// How to read the files it names; `None` when it came alone (the page that opens
    /// it says what that means for its kind of file).
    pub beside: Option<&'a Beside<'a>>,
}

impl<'a> Brought<'a> {
    /// A file brought with nothing beside it.
    pub fn alone(name: &'a str, bytes: &'a [u8]) -> Self {
        Self {
            name,
            bytes,
            beside: None,
        }
    }

    /// A file read from `folder` on this machine, the files it names read from there.
    pub fn from_folder(name: &'a str, bytes: &'a [u8], folder: &'a Beside<'a>) -> Self {
        Self {
            name,
            bytes,
            beside: Some(folder),
        }
    }
}
