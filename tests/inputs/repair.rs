//! Repairing a student's skin (`gltf::repair`, `skinlab --repair`): every problem of the
//! broken files that has a fix is mended in the written file, which opens without it,
//! skins as the repaired model in memory does, and passes the Khronos glTF Validator.

use crate::common;
use crate::model::{
    Expect, base, broken_files, bundled, f32s, load, mats, set_weights, skinned_positions,
};
use glam::{Mat4, Quat, Vec3};
use gltf::Fix;
use serde_json::{Value, json};
use std::f32::consts::FRAC_PI_2;
use std::path::PathBuf;

const NOTHING: &gltf::Beside = &|_, _| Err("nothing is beside it".to_owned());

/// Each broken file that has a fix, and the fix that mends it.
const REPAIRABLE: [(&str, Fix); 8] = [
    ("weights that do not sum to 1", Fix::Renormalise),
    ("more than four influences", Fix::KeepFour),
    ("a joint index outside the skin", Fix::Influences),
    ("a negative weight", Fix::Influences),
    ("a vertex with no weight", Fix::Influences),
    ("fewer inverse binds than joints", Fix::InverseBinds),
    ("a singular inverse bind", Fix::InverseBinds),
    ("a non-finite inverse bind", Fix::InverseBinds),
];

/// The broken file named `name`, and what the loader says of it.
fn broken(name: &str) -> (Vec<u8>, &'static str) {
    let (_, bytes, expect) = (broken_files().into_iter())
        .find(|(n, _, _)| *n == name)
        .unwrap_or_else(|| panic!("no broken file {name}"));
    let text = match expect {
        Expect::Refused(text) | Expect::Warned(text) => text,
    };
    (bytes, text)
}

/// Everything the loader said of a model.
fn said(model: &gltf::Model) -> Vec<String> {
    model.warnings.iter().chain(&model.notes).cloned().collect()
}

/// The rest pose, and clip 0 halfway: the poses the repaired files are skinned at.
fn poses(model: &gltf::Model) -> Vec<skin::clip::Pose> {
    let mut poses = vec![model.rest_pose.clone()];
    if let Some(clip) = model.clips.first() {
        poses.push(model.sample(clip, clip.start() + clip.duration() / 2.0));
    }
    poses
}

/// Models `a` and `b` skin every vertex to within `tolerance` at each of [`poses`].
fn assert_skins_alike(a: &gltf::Model, b: &gltf::Model, tolerance: f32, name: &str) {
    for pose in poses(a) {
        let (p, q) = (skinned_positions(a, &pose), skinned_positions(b, &pose));
        assert_eq!(p.len(), q.len(), "{name}");
        for (p, q) in p.iter().flatten().zip(q.iter().flatten()) {
            assert!(p.abs_diff_eq(*q, tolerance), "{name}: {p} against {q}");
        }
    }
}

#[test]
fn every_repairable_broken_file_opens_repaired_without_its_problem() {
    let mut failures = Vec::new();
    for (name, fix) in REPAIRABLE {
        let (file, problem) = broken(name);
        let repaired = match gltf::repair(&file, NOTHING, &Fix::ALL) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: not repaired: {e}"));
                continue;
            }
        };
        if !repaired
            .changes
            .iter()
            .any(|c| c.fix == fix && c.touched > 0)
        {
            failures.push(format!(
                "{name}: no change by {fix:?}: {:?}",
                repaired.changes
            ));
        }
        match gltf::load(&repaired.glb) {
            Ok(model) if said(&model).iter().any(|s| s.contains(problem)) => {
                failures.push(format!("{name}: still says {problem:?}"));
            }
            Ok(_) => {}
            Err(e) => failures.push(format!("{name}: the repaired file is refused: {e}")),
        }
        // Without its fix the problem stays: a refused file is still refused, and a
        // warned one still warned (or, where another fix covers it too, mended by that).
        let others: Vec<Fix> = Fix::ALL.into_iter().filter(|f| *f != fix).collect();
        if let Ok(without) = gltf::repair(&file, NOTHING, &others) {
            let model = load(&without.glb);
            let covered = [Fix::KeepFour, Fix::Influences].contains(&fix)
                && without.changes.iter().any(|c| c.touched > 0);
            if !covered && !said(&model).iter().any(|s| s.contains(problem)) {
                failures.push(format!("{name}: mended without {fix:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_repaired_file_skins_as_the_model_the_loader_mended_in_memory() {
    // The loader mends these in memory; the repaired file must hold what it used.
    for name in [
        "weights that do not sum to 1",
        "more than four influences",
        "a vertex with no weight",
    ] {
        let (file, _) = broken(name);
        let read = load(&file);
        let again = load(&gltf::repair(&file, NOTHING, &Fix::ALL).expect(name).glb);
        assert_skins_alike(&read, &again, 1e-5, name);
    }
}

#[test]
fn a_bad_influence_goes_to_the_vertex_s_strongest_valid_joint() {
    let (file, _) = broken("a joint index outside the skin");
    // Vertex 2 names joint 9 (of five) and joint 1: it follows joint 1 alone.
    let model = load(
        &gltf::repair(&file, NOTHING, &[Fix::Influences])
            .expect("repaired")
            .glb,
    );
    let stored = &model.skinned_meshes[0].stored;
    assert_eq!(stored[2].joints[0], 1);
    assert_eq!(stored[2].weights, [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(stored[3].weights, [0.5, 0.5, 0.0, 0.0], "vertex 3 was fine");
    let (file, _) = broken("a negative weight");
    let model = load(
        &gltf::repair(&file, NOTHING, &[Fix::Influences])
            .expect("repaired")
            .glb,
    );
    // Vertex 1: weight 1 on joint 0 and -0.5: joint 0 alone.
    let stored = &model.skinned_meshes[0].stored;
    assert_eq!((stored[1].joints[0], stored[1].weights[0]), (0, 1.0));
}

#[test]
fn weights_that_do_not_sum_to_one_are_renormalised_in_the_written_file_and_nothing_else_moves() {
    let mut g = base();
    set_weights(
        &mut g,
        &[
            1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.25, 0.25, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0,
        ],
    );
    let file = g.gltf();
    let read = load(&file);
    assert!(read.warnings.iter().any(|w| w.contains("renormalised")));
    let repaired = gltf::repair(&file, NOTHING, &[Fix::Renormalise]).expect("repaired");
    assert_eq!(repaired.changes.len(), 1, "{:?}", repaired.changes);
    assert_eq!(repaired.changes[0].touched, 2);
    assert!(
        (repaired.changes[0].line).contains("the weights of 2 of 4 vertices renormalised"),
        "{:?}",
        repaired.changes
    );
    let again = load(&repaired.glb);
    // Nothing left to say about the sums, and the weights stored are now what the loader
    // used: the same skinned vertices at every pose.
    assert!(!said(&again).iter().any(|w| w.contains("renormalised")));
    let stored: Vec<[f32; 4]> = again.skinned_meshes[0]
        .stored
        .iter()
        .map(|s| s.weights)
        .collect();
    assert_eq!(stored[1], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(stored[2], [0.5, 0.5, 0.0, 0.0]);
    assert_eq!(stored[3], [0.5, 0.5, 0.0, 0.0]);
    assert_eq!(
        again.skinned_meshes[0].part.vertices,
        read.skinned_meshes[0].part.vertices
    );
    // A file with nothing to repair says so, and is written as to_glb writes it.
    let fine = base().gltf();
    let fixes = [Fix::ALL.as_slice(), &[Fix::Rebind]].concat();
    let same = gltf::repair(&fine, NOTHING, &fixes).expect("written");
    assert!(same.changes.is_empty(), "{:?}", same.changes);
    assert_eq!(same.glb, gltf::to_glb(&fine, NOTHING).expect("written"));
}

#[test]
fn the_bundled_models_repaired_by_every_fix_skin_as_they_did() {
    for name in ["robot", "fox", "simple_skin"] {
        let file = bundled(name);
        let read = load(file);
        let repaired = gltf::repair(file, NOTHING, &Fix::ALL).expect(name);
        let again = load(&repaired.glb);
        assert!(
            !said(&again).iter().any(|w| w.contains("sum to")),
            "{name}: {:?}",
            again.warnings
        );
        assert_skins_alike(&read, &again, 1e-4, name);
        // Repaired again, nothing is left to repair.
        let twice = gltf::repair(&repaired.glb, NOTHING, &Fix::ALL).expect(name);
        assert!(twice.changes.is_empty(), "{name}: {:?}", twice.changes);
    }
}

#[test]
fn rotations_of_nodes_and_keys_are_divided_by_their_length() {
    let mut g = base();
    g.json["nodes"][3]["rotation"] = json!([0.0, 0.0, 0.6, 0.6]);
    g.json["nodes"][4]["rotation"] = json!([0.0, 0.0, 0.0, 0.0]);
    let keys = g.accessor(
        &f32s(&[0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.5, 0.5]),
        5126,
        "VEC4",
        2,
    );
    g.json["animations"][0]["samplers"][0]["output"] = keys.into();
    let file = g.gltf();
    let read = load(&file);
    let repaired = gltf::repair(&file, NOTHING, &[Fix::Rotations]).expect("repaired");
    let touched: Vec<usize> = repaired.changes.iter().map(|c| c.touched).collect();
    assert_eq!(touched, [2, 2], "{:?}", repaired.changes);
    let (json, _) = common::mutate::glb_chunks(&repaired.glb);
    let json: Value = serde_json::from_slice(json).expect("JSON");
    let rotation = |node: usize| {
        let r = &json["nodes"][node]["rotation"];
        Quat::from_array([0, 1, 2, 3].map(|i| r[i].as_f64().expect("number") as f32))
    };
    assert!((rotation(3).length() - 1.0).abs() < 1e-6);
    assert_eq!(rotation(4), Quat::IDENTITY);
    // The loader normalised them in memory: the same poses.
    let again = load(&repaired.glb);
    for (a, b) in poses(&read).iter().zip(poses(&again)) {
        for (s, t) in a.iter().zip(&b) {
            assert!(s.rotation.abs_diff_eq(t.rotation, 1e-6), "{s:?} {t:?}");
        }
    }
}

#[test]
fn rebind_makes_the_rest_pose_the_bind_and_is_made_only_when_asked() {
    let mut g = base();
    // Bound with joint 2 a quarter turn off its rest.
    let binds: Vec<Mat4> = (0..5)
        .map(|k| {
            let turn = if k == 2 { FRAC_PI_2 } else { 0.0 };
            (Mat4::from_translation(Vec3::new(0.0, k as f32, 0.0)) * Mat4::from_rotation_z(turn))
                .inverse()
        })
        .collect();
    let ibm = g.accessor(&mats(&binds), 5126, "MAT4", 5);
    g.json["skins"][0]["inverseBindMatrices"] = ibm.into();
    let file = g.gltf();
    let all = gltf::repair(&file, NOTHING, &Fix::ALL).expect("written");
    assert!(all.changes.is_empty(), "not a problem: {:?}", all.changes);
    let rebound = gltf::repair(&file, NOTHING, &[Fix::Rebind]).expect("rebound");
    assert_eq!(rebound.changes.len(), 1, "{:?}", rebound.changes);
    assert_eq!(rebound.changes[0].touched, 1);
    let model = load(&rebound.glb);
    // At the rest pose, every vertex is where the file put it.
    let at_rest = skinned_positions(&model, &model.rest_pose);
    let file_positions = &model.skinned_meshes[0].part.vertices.positions;
    for (p, q) in at_rest[0].iter().zip(file_positions) {
        assert!(p.abs_diff_eq(*q, 1e-5), "{p} against {q}");
    }
}

/// The validator's errors for each file, or `None` (after a skip) where it is not
/// installed outside CI.
fn validate(files: &[(String, Vec<u8>)]) -> Option<Vec<(String, usize, Vec<String>)>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let modules = root.join("target/tools/node_modules");
    if !modules.join("gltf-validator").is_dir() {
        let why = "the Khronos glTF Validator is not in target/tools (scripts/test installs it)";
        if common::in_ci() {
            panic!("{why}");
        }
        common::skip(why);
        return None;
    }
    let dir = root.join("target/tmp/validate");
    std::fs::create_dir_all(&dir).expect("a folder for the files");
    let mut paths = Vec::new();
    for (i, (_, bytes)) in files.iter().enumerate() {
        let path = dir.join(format!("{i}.glb"));
        std::fs::write(&path, bytes).expect("written");
        paths.push(path);
    }
    let out = std::process::Command::new("node")
        .arg(root.join("tests/inputs/validate.cjs"))
        .args(&paths)
        .env("NODE_PATH", &modules)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a line of JSON"))
        .collect();
    assert_eq!(lines.len(), files.len());
    Some(
        files
            .iter()
            .zip(lines)
            .map(|((name, _), line)| {
                let messages = line["messages"].as_array().cloned().unwrap_or_default();
                (
                    name.clone(),
                    line["errors"].as_u64().unwrap_or(u64::MAX) as usize,
                    messages.iter().map(|m| m.to_string()).collect(),
                )
            })
            .collect(),
    )
}

#[test]
fn every_repaired_file_passes_the_khronos_validator() {
    let mut files = Vec::new();
    for (name, _) in REPAIRABLE {
        let (file, _) = broken(name);
        let repaired = gltf::repair(&file, NOTHING, &Fix::ALL).expect(name);
        files.push((name.to_owned(), repaired.glb));
    }
    for name in ["robot", "fox", "simple_skin"] {
        let repaired = gltf::repair(bundled(name), NOTHING, &Fix::EVERY).expect(name);
        files.push((format!("{name}, every fix"), repaired.glb));
    }
    for name in ["robot", "fox"] {
        let (glb, _) = gltf::paint(bundled(name), NOTHING, &[repainted(name)]).expect(name);
        files.push((format!("{name}, painted"), glb));
    }
    // The validator finds what is wrong: a broken file written as it is fails it.
    let (refused, _) = broken("weights that do not sum to 1");
    files.push((
        "unrepaired".to_owned(),
        gltf::to_glb(&refused, NOTHING).expect("written"),
    ));
    let Some(reports) = validate(&files) else {
        return;
    };
    let (unrepaired, rest) = reports.split_last().expect("reports");
    assert!(
        unrepaired.1 > 0,
        "the validator passed a broken file: {unrepaired:?}"
    );
    let failing: Vec<_> = rest.iter().filter(|(_, errors, _)| *errors > 0).collect();
    assert!(failing.is_empty(), "{failing:#?}");
}

#[test]
fn joints_that_weigh_no_vertex_leave_their_skin_and_the_meshes_skin_the_same() {
    let file = bundled("robot");
    let read = load(file);
    let repaired = gltf::repair(file, NOTHING, &[Fix::Unused]).expect("repaired");
    assert_eq!(
        repaired.changes.len(),
        read.skins.len(),
        "{:?}",
        repaired.changes
    );
    let again = load(&repaired.glb);
    for (before, after) in read.skins.iter().zip(&again.skins) {
        assert!(
            after.joints.len() < before.joints.len(),
            "{} of {}",
            after.joints.len(),
            before.joints.len()
        );
        // The joints kept keep their order and their inverse binds.
        let mut at = before.joints.iter().zip(&before.joint_from_bind);
        for (joint, bind) in after.joints.iter().zip(&after.joint_from_bind) {
            assert!(
                at.any(|(j, b)| j == joint && b == bind),
                "joint {joint} out of order or rebound"
            );
        }
    }
    assert_eq!(again.joints.len(), read.joints.len(), "every node stays");
    assert_skins_alike(&read, &again, 1e-4, "robot");
    // Not a problem: "repair all" leaves the lists as they are.
    let all = gltf::repair(file, NOTHING, &Fix::ALL).expect("written");
    assert!(all.changes.is_empty(), "{:?}", all.changes);
}

/// The first skinned primitive of bundled model `name` with every other vertex given
/// wholly to joint 1 of its skin: weights as a brush could leave them.
fn repainted(name: &str) -> gltf::Painted {
    let model = load(bundled(name));
    let mesh = &model.skinned_meshes[0];
    let mut influences = mesh.stored.clone();
    for stored in influences.iter_mut().step_by(2) {
        *stored = gltf::StoredInfluences {
            joints: [1, 0, 0, 0],
            weights: [1.0, 0.0, 0.0, 0.0],
        };
    }
    gltf::Painted {
        mesh: mesh.part.mesh,
        primitive: mesh.part.primitive,
        influences,
    }
}

#[test]
fn painted_weights_are_written_into_the_file_and_reopen_as_painted() {
    for name in ["robot", "fox", "simple_skin"] {
        let painted = repainted(name);
        let (glb, model) =
            gltf::paint(bundled(name), NOTHING, std::slice::from_ref(&painted)).expect(name);
        let again = load(&glb);
        assert_eq!(again, model, "{name}: the model handed back is the file's");
        let mesh = (again.skinned_meshes.iter())
            .find(|m| (m.part.mesh, m.part.primitive) == (painted.mesh, painted.primitive))
            .expect("the painted primitive");
        assert_eq!(mesh.stored, painted.influences, "{name}");
        // Every other part of the file is as it was.
        let read = load(bundled(name));
        assert_eq!(again.clips, read.clips, "{name}");
        assert_eq!(again.skins, read.skins, "{name}");
        assert_eq!(again.materials, read.materials, "{name}");
    }
}

#[test]
fn weights_painted_for_a_primitive_the_file_lacks_or_past_its_skin_are_refused() {
    let file = bundled("simple_skin");
    let refused = |painted: gltf::Painted| {
        gltf::paint(file, NOTHING, &[painted])
            .expect_err("refused")
            .to_string()
    };
    let mut painted = repainted("simple_skin");
    painted.influences.pop();
    assert!(refused(painted).contains("has 10 vertices, and 9 were painted"));
    let mut painted = repainted("simple_skin");
    painted.primitive = 3;
    assert!(refused(painted).contains("no primitive 3 in mesh 0"));
    let mut painted = repainted("simple_skin");
    painted.influences[0].joints[0] = 7;
    assert!(refused(painted).contains("the painted file would not open"));
    // Eight influences a vertex: the vertices left unpainted would lose four.
    let (eight, _) = broken("more than four influences");
    let model = load(&eight);
    let mesh = &model.skinned_meshes[0];
    let painted = gltf::Painted {
        mesh: mesh.part.mesh,
        primitive: mesh.part.primitive,
        influences: mesh.stored.clone(),
    };
    let why = gltf::paint(&eight, NOTHING, &[painted])
        .expect_err("refused")
        .to_string();
    assert!(why.contains("(JOINTS_1): repair it to four"), "{why}");
}
