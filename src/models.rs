//! The models shipped with the app, and the ones the web app fetches from beside itself.
//! The reader that turns their bytes into a model is the `gltf` crate; this is only
//! where the bytes come from.

/// The models shipped with the app, by link name: `simple_skin` (Khronos' SimpleSkin),
/// `robot` (RobotExpressive) and `fox` (Khronos' Fox); credits in
/// `assets/models/README.md`. The desktop app holds all three. The web app holds
/// SimpleSkin and fetches the others from beside itself ([`FETCHED`]), which keeps
/// 300 kB out of the download of every page but the model page.
#[cfg(not(target_arch = "wasm32"))]
pub const BUNDLED: &[(&str, &[u8])] = &[
    (
        "simple_skin",
        include_bytes!("../assets/models/SimpleSkin.gltf"),
    ),
    (
        "robot",
        include_bytes!("../assets/models/RobotExpressive.glb"),
    ),
    ("fox", include_bytes!("../assets/models/Fox.glb")),
];

/// The models the web app holds itself (the desktop app holds the robot too).
#[cfg(target_arch = "wasm32")]
pub const BUNDLED: &[(&str, &[u8])] = &[(
    "simple_skin",
    include_bytes!("../assets/models/SimpleSkin.gltf"),
)];

/// The models the web app fetches, by link name and address relative to its page
/// (`scripts/build-web` puts them there).
pub const FETCHED: &[(&str, &str)] = &[
    ("robot", "models/RobotExpressive.glb"),
    ("fox", "models/Fox.glb"),
];

/// What became of each fetched model, in [`FETCHED`]'s order: its bytes, or why they
/// could not be fetched. Unset while the fetch is under way.
static ARRIVED: [std::sync::OnceLock<Result<Vec<u8>, String>>; 2] =
    [std::sync::OnceLock::new(), std::sync::OnceLock::new()];

/// Where model `name` stands in [`FETCHED`] (and in [`ARRIVED`]).
fn fetched_at(name: &str) -> Option<usize> {
    FETCHED.iter().position(|(n, _)| *n == name)
}

/// Hands over what the fetch of a model of [`FETCHED`] gave; ignored for any other
/// name, and after the first time.
pub fn arrived(name: &str, fetched: Result<Vec<u8>, String>) {
    if let Some(k) = fetched_at(name) {
        let _ = ARRIVED[k].set(fetched);
    }
}

/// Whether the model `name` is one the app fetches and its bytes have not arrived:
/// `Some(Ok(()))` while the fetch is under way, `Some(Err(why))` when it failed, `None`
/// when the bytes are here (or it is not fetched).
pub fn awaited(name: &str) -> Option<Result<(), String>> {
    if BUNDLED.iter().any(|(n, _)| *n == name) {
        return None;
    }
    let k = fetched_at(name)?;
    match ARRIVED[k].get() {
        None => Some(Ok(())),
        Some(Ok(_)) => None,
        Some(Err(why)) => Some(Err(format!(
            "the app fetches this model from `{}` beside itself, and could not ({why}): \
             serve the app's folder over http, with its models/ folder",
            FETCHED[k].1
        ))),
    }
}

/// The bytes of a bundled model by name (a fetched one once it has arrived).
pub fn bytes(name: &str) -> Option<&'static [u8]> {
    let fetched = || ARRIVED[fetched_at(name)?].get()?.as_deref().ok();
    BUNDLED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, b)| *b)
        .or_else(fetched)
}

/// Whether opening `link` (an address's fragment, `#` and all) must wait for the fetched
/// models, so that it opens as it would in the desktop app: no link (a stored state may
/// hold the model page), a link to the model page (slug `model_page`), or a deck (whose
/// slides may step onto it). Any other page starts at once, and the models arrive
/// meanwhile.
pub fn awaited_by(link: &str, model_page: &str) -> bool {
    let link = link.trim().trim_start_matches('#');
    if link.is_empty() {
        return true;
    }
    crate::link::Link::parse(link)
        .is_ok_and(|link| link.slug == model_page || link.get("deck").is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_page_no_link_and_decks_wait_for_the_models() {
        for link in [
            "",
            "#",
            "#model",
            "#MODEL?clip=Walking",
            "#grid?deck=lecture:3",
        ] {
            assert!(awaited_by(link, "model"), "{link:?}");
        }
        // Other pages start at once, including one whose values merely say "model".
        for link in ["#grid?angle=0.8", "#gpu?source=model", "#models", "#%%%"] {
            assert!(!awaited_by(link, "model"), "{link:?}");
        }
    }
}
