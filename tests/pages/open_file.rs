//! Opening a model the user brings: dropped on the app, chosen in the file dialog, or
//! refused with its reason while the page keeps what it showed.

use crate::kit;

use egui_kittest::kittest::Queryable as _;
use skinlab::SkinlabApp;
use skinlab::link::Link;
use skinlab::page::open;
use skinlab::pages::model::{Asset, ModelPage};
use std::path::PathBuf;

fn simple_skin() -> &'static [u8] {
    skinlab::models::bytes("simple_skin").expect("bundled")
}

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the folder is made");
    dir
}

#[test]
fn a_dropped_model_opens_on_the_model_page_and_stays_through_reset() {
    let mut app = SkinlabApp::new();
    app.open_dropped("MySkin.gltf", Ok(simple_skin().to_vec()));
    assert!(app.notices().is_empty(), "{:?}", app.notices());
    assert_eq!(app.current_page().slug(), "model");
    let link = app.current_link().to_string();
    assert!(link.starts_with("model?asset=file"), "{link}");

    // Reset and links keep the file: it is the page's model until another is opened.
    app.reset_page();
    assert!(app.current_link().to_string().contains("asset=file"));
    app.open_link("model?asset=robot").expect("robot");
    app.open_link("model?asset=file&t=1")
        .expect("the file again");
    assert_eq!(
        app.current_link().to_string(),
        "model?asset=file&clip=0&t=1"
    );
}

#[test]
fn a_file_that_cannot_be_used_is_named_and_the_last_good_model_stays() {
    let mut app = SkinlabApp::new();
    app.open_dropped("MySkin.gltf", Ok(simple_skin().to_vec()));
    let good = app.current_link().to_string();
    let robot = skinlab::models::bytes("robot").expect("bundled");
    type Case<'a> = (&'a str, Result<Vec<u8>, String>, &'a str);
    let cases: [Case; 4] = [
        ("junk.glb", Ok(b"not a model".to_vec()), "not a glTF file"),
        (
            "cut.glb",
            Ok(robot[..robot.len() / 2].to_vec()),
            "truncated",
        ),
        (
            "photo.png",
            Ok(vec![0x89, b'P', b'N', b'G']),
            "not a file skinlab opens",
        ),
        (
            "gone.glb",
            Err("permission denied".into()),
            "could not be read",
        ),
    ];
    for (name, bytes, reason) in cases {
        app.open_dropped(name, bytes);
        let notice = app.notices().last().cloned().unwrap_or_default();
        assert!(
            notice.contains(name) && notice.contains(reason),
            "{name}: {notice}"
        );
        assert_eq!(
            app.current_link().to_string(),
            good,
            "{name}: the file stays"
        );
    }
    assert_eq!(app.notices().len(), 4, "one notice per file");
}

#[test]
fn asset_file_is_refused_until_a_file_is_open() {
    let mut page = ModelPage::default();
    let error = open(&mut page, &Link::parse("model?asset=file").expect("parses"))
        .expect_err("no file yet")
        .to_string();
    assert!(error.contains("no file is open"), "{error}");
    assert_eq!(page.asset, Asset::Robot, "the page is at its defaults");
}

#[test]
fn a_model_chosen_in_the_file_dialog_opens() {
    let dir = folder("dialog");
    std::fs::create_dir(dir.join("more")).expect("subfolder");
    std::fs::write(dir.join("more").join("Chosen.gltf"), simple_skin()).expect("file");
    std::fs::write(dir.join("readme.txt"), "not offered").expect("file");
    let mut page = ModelPage::default();
    page.show_file_dialog(Some(dir));
    let mut harness = kit::page_harness(page, &["file"]);
    assert!(
        harness.query_by_label("readme.txt").is_none(),
        "only folders and glTF files are offered"
    );
    harness.get_by_label("more/").click();
    harness.run_steps(2);
    harness.get_by_label("Chosen.gltf").click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.asset, Asset::File);
    assert_eq!(page.model_name(), "Chosen.gltf");
    assert_eq!(page.model.skins.len(), 1);
    assert!(page.open_error.is_none(), "{:?}", page.open_error);
}

#[test]
fn a_broken_file_chosen_in_the_dialog_is_explained_on_the_page() {
    let dir = folder("dialog-broken");
    std::fs::write(dir.join("Broken.glb"), b"glTF\x02\x00\x00\x00").expect("file");
    let mut page = ModelPage::default();
    page.show_file_dialog(Some(dir));
    let mut harness = kit::page_harness(page, &["file"]);
    harness.get_by_label("Broken.glb").click();
    harness.run_steps(2);
    assert_eq!(harness.state().asset, Asset::Robot, "the robot stays");
    assert!(
        harness
            .query_all_by_label_contains("`Broken.glb`: the file is truncated")
            .next()
            .is_some()
            && harness
                .query_all_by_label_contains("The page still shows robot")
                .next()
                .is_some(),
        "the reason is on the page"
    );
}

#[test]
fn the_file_dialog_lists_folders_then_models_in_any_case() {
    let dir = folder("listing");
    for name in ["b.GLB", "a.gltf", "c.png", ".hidden.glb"] {
        std::fs::write(dir.join(name), b"x").expect("file");
    }
    std::fs::create_dir(dir.join("Zed")).expect("folder");
    let listing = skinlab::ui::file_dialog::list(&dir, &["glb", "gltf"]).expect("listed");
    assert_eq!(listing.folders, ["Zed"]);
    assert_eq!(listing.files, ["a.gltf", "b.GLB"]);
}

/// The robot as an exporter's "glTF Separate" writes it: the JSON, naming its buffer
/// `robot parts.bin` (URI-encoded), and that buffer's bytes.
fn robot_apart() -> (Vec<u8>, Vec<u8>) {
    let (mut json, bin) = bundled_apart("robot");
    json["buffers"][0]["uri"] = "robot%20parts.bin".into();
    (serde_json::to_vec(&json).expect("json"), bin)
}

/// A bundled GLB's JSON, to rewrite, and its BIN chunk.
fn bundled_apart(name: &str) -> (serde_json::Value, Vec<u8>) {
    let glb = skinlab::models::bytes(name).expect("bundled");
    let word = |at: usize| u32::from_le_bytes(glb[at..at + 4].try_into().unwrap()) as usize;
    let json_len = word(12);
    let bin_at = 20 + json_len;
    let bin = glb[bin_at + 8..bin_at + 8 + word(bin_at)].to_vec();
    let json = serde_json::from_slice(&glb[20..20 + json_len]).expect("the model's JSON");
    (json, bin)
}

#[test]
fn a_gltf_dropped_with_its_bin_opens_and_the_bin_is_not_opened_apart() {
    let (json, bin) = robot_apart();
    let mut app = SkinlabApp::new();
    app.open_dropped_files(
        vec![
            ("robot parts.bin".to_owned(), Ok(bin)),
            ("robot.gltf".to_owned(), Ok(json.clone())),
        ],
        None,
    );
    assert!(
        app.notices().iter().all(|n| !n.contains("bin")),
        "{:?}",
        app.notices()
    );
    assert!(
        app.current_link()
            .to_string()
            .starts_with("model?asset=file"),
        "{}",
        app.current_link()
    );
    // Dropped alone, it names what is missing.
    let mut alone = SkinlabApp::new();
    alone.open_dropped_files(vec![("robot.gltf".to_owned(), Ok(json))], None);
    let notice = alone.notices().last().cloned().unwrap_or_default();
    assert!(
        notice.contains("'robot parts.bin'") && notice.contains("drop `robot parts.bin` together"),
        "{notice}"
    );
}

#[test]
fn a_gltf_opened_from_its_folder_reads_its_bin_there() {
    let (json, bin) = robot_apart();
    let dir = folder("gltf_apart");
    std::fs::write(dir.join("robot.gltf"), json).expect("written");
    std::fs::write(dir.join("robot parts.bin"), bin).expect("written");
    let mut page = ModelPage::default();
    page.open_path(&dir.join("robot.gltf"));
    assert_eq!(page.open_error, None);
    assert_eq!(page.model.clips.len(), 14);
    // Saved, the file and its .bin are one GLB that needs nothing beside it.
    let saved = dir.join("robot whole.glb");
    page.save_to(&saved);
    let whole = gltf::load(&std::fs::read(&saved).expect("saved")).expect("opens alone");
    assert_eq!(whole.skinned_meshes, page.model.skinned_meshes);
    std::fs::remove_file(dir.join("robot parts.bin")).expect("removed");
    page.open_path(&dir.join("robot.gltf"));
    let error = page.open_error.clone().unwrap_or_default();
    assert!(
        error.contains("'robot parts.bin' beside it, which could not be read"),
        "{error}"
    );
    assert_eq!(page.model.clips.len(), 14, "the model that was open stays");
}

/// The fox as an exporter's "glTF Separate" writes it: the JSON, its buffer in
/// `fox.bin`, and its texture in `fox skin.png` (URI-encoded in the JSON).
fn fox_apart() -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let (mut json, bin) = bundled_apart("fox");
    let view = json["images"][0]["bufferView"].as_u64().expect("a view") as usize;
    let at = json["bufferViews"][view]["byteOffset"]
        .as_u64()
        .unwrap_or(0) as usize;
    let length = json["bufferViews"][view]["byteLength"]
        .as_u64()
        .expect("a length") as usize;
    let png = bin[at..at + length].to_vec();
    json["images"][0] = serde_json::json!({"uri": "fox%20skin.png"});
    json["buffers"][0]["uri"] = "fox.bin".into();
    (serde_json::to_vec(&json).expect("json"), bin, png)
}

/// A fresh folder `name` holding `fox.gltf` and `fox.bin` from [`fox_apart`], and `png`
/// as `fox skin.png`.
fn fox_folder(name: &str, png: &[u8]) -> PathBuf {
    let (json, bin, _) = fox_apart();
    let dir = folder(name);
    std::fs::write(dir.join("fox.gltf"), json).expect("written");
    std::fs::write(dir.join("fox.bin"), bin).expect("written");
    std::fs::write(dir.join("fox skin.png"), png).expect("written");
    dir
}

#[test]
fn a_gltf_with_its_bin_and_texture_beside_it_opens_textured() {
    use skinlab::pages::model::textures::Decoded;
    let (json, bin, png) = fox_apart();
    let dir = fox_folder("gltf_textured", &png);
    let mut page = ModelPage::default();
    page.open_path(&dir.join("fox.gltf"));
    assert_eq!(page.open_error, None);
    let Some(Decoded::Ready(texture)) = page.texture(0) else {
        panic!("the texture is decoded: {:?}", page.texture(0));
    };
    assert!(
        texture.size[0] >= 256 && texture.size[1] >= 256,
        "{:?}",
        texture.size
    );
    // Without its image the model still opens, drawn in its material's colour, and
    // the page says why the texture is missing.
    std::fs::remove_file(dir.join("fox skin.png")).expect("removed");
    page.open_path(&dir.join("fox.gltf"));
    assert_eq!(page.open_error, None);
    match page.texture(0) {
        Some(Decoded::Failed(why)) => assert!(why.contains("'fox skin.png'"), "{why}"),
        other => panic!("the missing image is named: {other:?}"),
    }
    // Dropped together on the app, the three are one model, none opened apart.
    let mut app = SkinlabApp::new();
    app.open_dropped_files(
        vec![
            ("fox.gltf".to_owned(), Ok(json)),
            ("fox.bin".to_owned(), Ok(bin)),
            ("fox skin.png".to_owned(), Ok(png)),
        ],
        None,
    );
    assert!(app.notices().is_empty(), "{:?}", app.notices());
    assert!(
        app.current_link()
            .to_string()
            .starts_with("model?asset=file")
    );
}

#[test]
fn a_png_that_is_not_one_is_named_and_the_model_still_opens() {
    use skinlab::pages::model::textures::Decoded;
    let dir = fox_folder("gltf_bad_texture", b"\x89PNG\r\n\x1a\nthen nothing");
    let mut page = ModelPage::default();
    page.open_path(&dir.join("fox.gltf"));
    assert_eq!(page.open_error, None);
    assert!(
        matches!(page.texture(0), Some(Decoded::Failed(_))),
        "{:?}",
        page.texture(0)
    );
}
