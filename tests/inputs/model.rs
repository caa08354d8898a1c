//! The glTF boundary on real files and on broken ones: the two bundled models load and
//! animate as their README says; small files the tests write check the spline and step
//! keys and every problem's message; truncations and byte flips never panic.

use crate::common;

use common::mutate::{XorShift, glb, glb_chunks, mutate_number};
use glam::{Mat4, Quat, Vec3};
use gltf::Model;
use serde_json::{Value, json};
use skin::clip::{Transform, blend_poses, synced_times};
use skin::lbs;
use std::f32::consts::FRAC_PI_2;

pub(super) fn bundled(name: &str) -> &'static [u8] {
    skinlab::models::bytes(name).unwrap_or_else(|| panic!("no bundled model {name}"))
}

pub(super) fn load(bytes: &[u8]) -> Model {
    gltf::load(bytes).unwrap_or_else(|e| panic!("refused: {e}"))
}

/// Skinned positions of every skinned mesh under `pose`.
pub(super) fn skinned_positions(model: &Model, pose: &[Transform]) -> Vec<Vec<Vec3>> {
    let world = model.world_from_joint(pose);
    model
        .skinned_meshes
        .iter()
        .map(|mesh| {
            let palette = model.palette(mesh.skin, &world);
            lbs::skin_vertices(&palette, &mesh.part.vertices)
                .iter()
                .map(|v| v.position)
                .collect()
        })
        .collect()
}

fn vertex_at(model: &Model, at: Vec3) -> usize {
    let positions = &model.skinned_meshes[0].part.vertices.positions;
    positions
        .iter()
        .position(|p| p.abs_diff_eq(at, 1e-6))
        .unwrap_or_else(|| panic!("no vertex at {at}"))
}

#[test]
fn simple_skin_turns_its_top_vertex_at_one_second() {
    let model = load(bundled("simple_skin"));
    assert_eq!(model.skins.len(), 1);
    assert_eq!(model.skinned_meshes.len(), 1);
    assert_eq!(model.clips.len(), 1);
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    let skin = &model.skins[0];
    assert_eq!(skin.joints.len(), 2);
    let clip = &model.clips[0];
    assert_eq!((clip.start(), clip.end()), (0.0, 5.5));

    let pose = model.sample(clip, 1.0);
    let joint1 = skin.joints[1];
    let turned = pose[joint1].rotation;
    assert!(
        turned.angle_between(Quat::from_rotation_z(FRAC_PI_2)) < 1e-3,
        "{turned}"
    );
    let top = vertex_at(&model, Vec3::new(-0.5, 2.0, 0.0));
    let inf = model.skinned_meshes[0].part.vertices.influences[top];
    assert_eq!(inf.used().collect::<Vec<_>>(), vec![(1, 1.0)]);
    let skinned = &skinned_positions(&model, &pose)[0];
    assert!(
        skinned[top].abs_diff_eq(Vec3::new(-1.0, 0.5, 0.0), 1e-3),
        "{}",
        skinned[top]
    );
    // In the bind pose nothing moves.
    let rest = &skinned_positions(&model, &model.rest_pose)[0];
    assert!(rest[top].abs_diff_eq(Vec3::new(-0.5, 2.0, 0.0), 1e-6));
}

#[test]
fn simple_skin_at_a_quarter_second_by_hand() {
    let model = load(bundled("simple_skin"));
    let pose = model.sample(&model.clips[0], 0.25);
    let joint1 = model.skins[0].joints[1];
    // Keys: identity at 0 s and, at 0.5 s, (0, 0, 0.383, 0.924), about 45° about z as
    // the file rounds it. A quarter second is halfway, and halfway along the arc
    // between two unit quaternions is their normalised sum.
    let key = Quat::from_xyzw(0.0, 0.0, 0.383, 0.924).normalize();
    let expected = Quat::from_xyzw(key.x, key.y, key.z, key.w + 1.0).normalize();
    let theta = 2.0 * expected.z.atan2(expected.w);
    assert!(
        (theta.to_degrees() - 22.5).abs() < 0.05,
        "{}",
        theta.to_degrees()
    );
    let q = pose[joint1].rotation;
    assert!(q.abs_diff_eq(expected, 1e-6), "{q} vs {expected}");

    // (-0.5, 1, 0) has weight 0.5 on each joint. Joint 0 has not moved; joint 1 sits at
    // (0, 1, 0) and turns the vertex's offset (-0.5, 0) by θ about itself.
    let v = vertex_at(&model, Vec3::new(-0.5, 1.0, 0.0));
    let inf = model.skinned_meshes[0].part.vertices.influences[v];
    assert_eq!(inf.used().collect::<Vec<_>>(), vec![(0, 0.5), (1, 0.5)]);
    let by_joint0 = Vec3::new(-0.5, 1.0, 0.0);
    let by_joint1 = Vec3::new(-0.5 * theta.cos(), 1.0 - 0.5 * theta.sin(), 0.0);
    let by_hand = 0.5 * by_joint0 + 0.5 * by_joint1;
    let skinned = skinned_positions(&model, &pose)[0][v];
    assert!(skinned.abs_diff_eq(by_hand, 1e-5), "{skinned} vs {by_hand}");
}

const ROBOT_CLIPS: [&str; 14] = [
    "Dance", "Death", "Idle", "Jump", "No", "Punch", "Running", "Sitting", "Standing", "ThumbsUp",
    "Walking", "WalkJump", "Wave", "Yes",
];

#[test]
fn robot_has_its_clips_and_four_skins_of_the_same_joints() {
    let model = load(bundled("robot"));
    let names: Vec<&str> = model.clips.iter().map(|c| c.name()).collect();
    assert_eq!(names, ROBOT_CLIPS);
    assert_eq!(model.skinned_meshes.len(), 4);
    assert_eq!(model.skins.len(), 4);
    for skin in &model.skins {
        assert_eq!(skin.joints.len(), 43);
        assert_eq!(skin.joints, model.skins[0].joints);
    }
    let mut skins_used: Vec<usize> = model.skinned_meshes.iter().map(|m| m.skin).collect();
    skins_used.sort();
    assert_eq!(skins_used, [0, 1, 2, 3]);
    let skinned_vertices: usize = model
        .skinned_meshes
        .iter()
        .map(|m| m.part.vertices.positions.len())
        .sum();
    assert_eq!(skinned_vertices, 1108);
    assert_eq!(model.rigid_meshes.len(), 15);
    // The skeleton is parents-first even though the file lists children first.
    for j in 0..model.skeleton.len() {
        assert!(model.skeleton.parent(j).is_none_or(|p| p < j));
    }
    let hips = model.joint_named("Hips").expect("a Hips joint");
    assert!(model.skins[0].joints.contains(&hips));

    // What the README says the loader must report.
    // Facts of the file the loader acts on as the specification says: notes, not
    // warnings (nothing in the file is wrong or was repaired).
    let ignored = model
        .notes
        .iter()
        .filter(|n| n.contains("that transform is ignored"))
        .count();
    assert_eq!(ignored, 4, "{:#?}", model.notes);
    assert!(model.warnings.is_empty(), "{:#?}", model.warnings);
    // The face: three named targets on each of the head's three rigid parts, and clips
    // that animate them.
    let parts = model.skinned_meshes.iter().map(|m| &m.part);
    let faces: Vec<Vec<&str>> = (parts.chain(model.rigid_meshes.iter().map(|m| &m.part)))
        .filter(|part| !part.targets.is_empty())
        .map(|part| part.targets.iter().map(|t| t.name.as_str()).collect())
        .collect();
    assert_eq!(faces.len(), 3, "{faces:?}");
    assert!(
        faces
            .iter()
            .all(|names| *names == ["Angry", "Surprised", "Sad"]),
        "{faces:?}"
    );
    let channels: usize = model.clips.iter().map(|c| c.weights_channels().len()).sum();
    assert_eq!(channels, 42, "{:#?}", model.notes);
    assert!(
        model.notes.iter().any(|n| n.starts_with("4 skins:")),
        "{:#?}",
        model.notes
    );
}

#[test]
fn every_robot_clip_skins_to_finite_positions() {
    let model = load(bundled("robot"));
    let mut moved = 0;
    let rest = skinned_positions(&model, &model.rest_pose);
    for clip in &model.clips {
        let steps = 24;
        for step in 0..=steps {
            let t = clip.start() + clip.duration() * step as f32 / steps as f32;
            let pose = model.sample(clip, t);
            let world = model.world_from_joint(&pose);
            assert!(
                world.iter().all(|m| m.is_finite()),
                "{} at {t}",
                clip.name()
            );
            let skinned = skinned_positions(&model, &pose);
            for (mesh, positions) in skinned.iter().enumerate() {
                assert!(
                    positions.iter().all(|p| p.is_finite()),
                    "{} at {t}: mesh {mesh}",
                    clip.name()
                );
                if positions
                    .iter()
                    .zip(&rest[mesh])
                    .any(|(a, b)| a.distance(*b) > 1e-3)
                {
                    moved += 1;
                }
            }
            for rigid in &model.rigid_meshes {
                let m = world[rigid.joint];
                assert!(
                    rigid
                        .part
                        .vertices
                        .positions
                        .iter()
                        .all(|p| m.transform_point3(*p).is_finite())
                );
            }
        }
    }
    // The clips really animate the hands.
    assert!(moved > 100, "{moved}");
}

#[test]
fn robot_blend_of_two_clips_at_zero_and_one_is_each_clip() {
    let model = load(bundled("robot"));
    let (walk, run) = (
        model.clip("Walking").expect("Walking"),
        model.clip("Running").expect("Running"),
    );
    for phase in [0.0, 0.3, 0.75] {
        let (ta, tb) = synced_times(walk, run, phase);
        let a = model.sample(walk, ta);
        let b = model.sample(run, tb);
        let at0 = skinned_positions(&model, &blend_poses(&a, &b, 0.0, true));
        let at1 = skinned_positions(&model, &blend_poses(&a, &b, 1.0, true));
        let half = skinned_positions(&model, &blend_poses(&a, &b, 0.5, true));
        let (pa, pb) = (skinned_positions(&model, &a), skinned_positions(&model, &b));
        let close = |x: &Vec<Vec<Vec3>>, y: &Vec<Vec<Vec3>>| {
            x.iter()
                .flatten()
                .zip(y.iter().flatten())
                .all(|(p, q)| p.abs_diff_eq(*q, 1e-4))
        };
        assert!(close(&at0, &pa), "phase {phase}: weight 0 is not Walking");
        assert!(close(&at1, &pb), "phase {phase}: weight 1 is not Running");
        assert!(!close(&pa, &pb), "phase {phase}: the clips should differ");
        assert!(!close(&half, &pa) && !close(&half, &pb));
    }
}

// ---------------------------------------------------------------------------------
// Small files written by the tests.

const FLOAT: u32 = 5126;
const UNSIGNED_BYTE: u32 = 5121;
const UNSIGNED_SHORT: u32 = 5123;
const SHORT: u32 = 5122;
const BYTE: u32 = 5120;

pub(super) fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn u16s(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn i16s(values: &[i16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub(super) fn mats(values: &[Mat4]) -> Vec<u8> {
    f32s(
        &values
            .iter()
            .flat_map(|m| m.to_cols_array())
            .collect::<Vec<_>>(),
    )
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A glTF being written: JSON plus one binary buffer.
pub(super) struct Gltf {
    pub(super) json: Value,
    pub(super) bin: Vec<u8>,
}

impl Gltf {
    /// Appends `bytes` as a new buffer view and an accessor over it; returns its index.
    pub(super) fn accessor(
        &mut self,
        bytes: &[u8],
        component: u32,
        kind: &str,
        count: usize,
    ) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let views = self.json["bufferViews"].as_array_mut().expect("views");
        views.push(json!({"buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len()}));
        let view = views.len() - 1;
        self.bin.extend_from_slice(bytes);
        let accessors = self.json["accessors"].as_array_mut().expect("accessors");
        accessors.push(json!({
            "bufferView": view, "componentType": component, "type": kind, "count": count
        }));
        accessors.len() - 1
    }

    pub(super) fn primitive(&mut self) -> &mut Value {
        &mut self.json["meshes"][0]["primitives"][0]
    }

    fn finish_json(&self, uri: Option<String>) -> Value {
        let mut json = self.json.clone();
        let mut buffer = json!({"byteLength": self.bin.len()});
        if let Some(uri) = uri {
            buffer["uri"] = uri.into();
        }
        json["buffers"] = json!([buffer]);
        json
    }

    /// A `.gltf` with the buffer as a data URI.
    pub(super) fn gltf(&self) -> Vec<u8> {
        let uri = format!("data:application/octet-stream;base64,{}", base64(&self.bin));
        serde_json::to_vec(&self.finish_json(Some(uri))).expect("json")
    }

    /// A GLB with the buffer as its BIN chunk.
    pub(super) fn glb(&self) -> Vec<u8> {
        let json = serde_json::to_vec(&self.finish_json(None)).expect("json");
        glb(&json, &self.bin)
    }
}

/// Five joints in a column one unit apart (nodes 1 to 5); node 0 holds a skinned quad
/// of four vertices, the top two shared half and half by joints 0 and 1; an animation
/// turns joint 1.
pub(super) fn base() -> Gltf {
    let mut g = Gltf {
        json: json!({
            "asset": {"version": "2.0"},
            "scene": 0,
            "scenes": [{"nodes": [0, 1]}],
            "nodes": [
                {"name": "quad", "mesh": 0, "skin": 0},
                {"name": "root", "children": [2]},
                {"name": "j1", "translation": [0.0, 1.0, 0.0], "children": [3]},
                {"name": "j2", "translation": [0.0, 1.0, 0.0], "children": [4]},
                {"name": "j3", "translation": [0.0, 1.0, 0.0], "children": [5]},
                {"name": "j4", "translation": [0.0, 1.0, 0.0]}
            ],
            "meshes": [{"primitives": [{"attributes": {}}]}],
            "skins": [{"joints": [1, 2, 3, 4, 5]}],
            "bufferViews": [],
            "accessors": []
        }),
        bin: Vec::new(),
    };
    let positions = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0];
    let p = g.accessor(&f32s(&positions), FLOAT, "VEC3", 4);
    g.json["accessors"][p]["min"] = json!([0.0, 0.0, 0.0]);
    g.json["accessors"][p]["max"] = json!([1.0, 1.0, 0.0]);
    let normals = [0.0, 0.0, 1.0].repeat(4);
    let n = g.accessor(&f32s(&normals), FLOAT, "VEC3", 4);
    let i = g.accessor(&u16s(&[0, 1, 2, 2, 1, 3]), UNSIGNED_SHORT, "SCALAR", 6);
    let j = g.accessor(
        &[0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0],
        UNSIGNED_BYTE,
        "VEC4",
        4,
    );
    let weights = [
        1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0,
    ];
    let w = g.accessor(&f32s(&weights), FLOAT, "VEC4", 4);
    *g.primitive() = json!({
        "attributes": {"POSITION": p, "NORMAL": n, "JOINTS_0": j, "WEIGHTS_0": w},
        "indices": i
    });
    let binds: Vec<Mat4> = (0..5)
        .map(|k| Mat4::from_translation(Vec3::new(0.0, -(k as f32), 0.0)))
        .collect();
    let ibm = g.accessor(&mats(&binds), FLOAT, "MAT4", 5);
    g.json["skins"][0]["inverseBindMatrices"] = ibm.into();
    let times = g.accessor(&f32s(&[0.0, 1.0]), FLOAT, "SCALAR", 2);
    // glTF asks for a clip's key times to carry their bounds.
    g.json["accessors"][times]["min"] = json!([0.0]);
    g.json["accessors"][times]["max"] = json!([1.0]);
    let turn = Quat::from_rotation_z(FRAC_PI_2);
    let keys = g.accessor(
        &f32s(&[0.0, 0.0, 0.0, 1.0, turn.x, turn.y, turn.z, turn.w]),
        FLOAT,
        "VEC4",
        2,
    );
    g.json["animations"] = json!([{
        "name": "wave",
        "channels": [{"sampler": 0, "target": {"node": 2, "path": "rotation"}}],
        "samplers": [{"input": times, "output": keys}]
    }]);
    g
}

#[test]
fn vertex_colours_are_read_as_three_floats_or_four_normalised_bytes() {
    let mut g = base();
    let rgb = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.5, 0.5, 0.5];
    let c = g.accessor(&f32s(&rgb), FLOAT, "VEC3", 4);
    g.primitive()["attributes"]["COLOR_0"] = c.into();
    let model = load(&g.glb());
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    let want = [
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
        [0.5, 0.5, 0.5, 1.0],
    ];
    assert_eq!(
        model.skinned_meshes[0].part.colors, want,
        "alpha 1 where there are three"
    );

    let mut g = base();
    let bytes = [
        255, 0, 0, 255, 0, 255, 0, 51, 0, 0, 255, 0, 255, 255, 255, 255,
    ];
    let c = g.accessor(&bytes, UNSIGNED_BYTE, "VEC4", 4);
    g.json["accessors"][c]["normalized"] = true.into();
    g.primitive()["attributes"]["COLOR_0"] = c.into();
    let model = load(&g.glb());
    let colors = &model.skinned_meshes[0].part.colors;
    assert_eq!(colors[1], [0.0, 1.0, 0.0, 0.2], "51 of 255 is 0.2");
    assert_eq!(colors[2], [0.0, 0.0, 1.0, 0.0]);
}

#[test]
fn a_texture_transform_moves_turns_and_scales_the_texture_coordinates() {
    let mut g = base();
    let uvs = [0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0];
    let t0 = g.accessor(&f32s(&uvs), FLOAT, "VEC2", 4);
    let t1 = g.accessor(&f32s(&uvs.map(|x| 0.5 * x)), FLOAT, "VEC2", 4);
    g.primitive()["attributes"]["TEXCOORD_0"] = t0.into();
    g.primitive()["attributes"]["TEXCOORD_1"] = t1.into();
    g.primitive()["material"] = 0.into();
    g.json["images"] = json!([{"uri": "data:image/png;base64,iVBORw0KGgo="}]);
    g.json["textures"] = json!([{"source": 0}]);
    let (offset, rotation, scale) = ([0.5, 0.25], FRAC_PI_2, [2.0, 3.0]);
    g.json["materials"] = json!([{"pbrMetallicRoughness": {"baseColorTexture": {
        "index": 0,
        "extensions": {"KHR_texture_transform": {
            "offset": offset, "rotation": rotation, "scale": scale, "texCoord": 1
        }}
    }}}]);
    g.json["extensionsUsed"] = json!(["KHR_texture_transform"]);
    let model = load(&g.glb());
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    // The extension's matrix, written out: scale, then turn, then move, on TEXCOORD_1
    // (its texCoord replaces the texture's).
    let (sin, cos) = rotation.sin_cos();
    let moved = |[u, v]: [f32; 2]| {
        let (u, v) = (0.5 * u * scale[0], 0.5 * v * scale[1]);
        [
            cos * u + sin * v + offset[0],
            -sin * u + cos * v + offset[1],
        ]
    };
    let got = &model.skinned_meshes[0].part.uvs;
    for (k, uv) in uvs.chunks(2).enumerate() {
        let want = moved([uv[0], uv[1]]);
        assert!(
            (got[k][0] - want[0]).abs() < 1e-6 && (got[k][1] - want[1]).abs() < 1e-6,
            "uv {k}: {:?}, want {want:?}",
            got[k]
        );
    }
}

#[test]
fn each_alpha_mode_is_read_and_a_wrong_one_is_named() {
    let mut g = base();
    g.json["materials"] = json!([
        {"alphaMode": "MASK", "alphaCutoff": 0.3},
        {"alphaMode": "MASK"},
        {"alphaMode": "BLEND"},
        {},
        {"alphaMode": "SHINY"}
    ]);
    let model = load(&g.glb());
    let modes: Vec<gltf::AlphaMode> = model.materials.iter().map(|m| m.alpha).collect();
    assert_eq!(
        modes,
        [
            gltf::AlphaMode::Mask(0.3),
            gltf::AlphaMode::Mask(0.5),
            gltf::AlphaMode::Blend,
            gltf::AlphaMode::Opaque,
            gltf::AlphaMode::Opaque
        ]
    );
    assert_eq!(model.warnings.len(), 1, "{:?}", model.warnings);
    assert!(
        model.warnings[0].contains("materials[4].alphaMode: must be OPAQUE, MASK or BLEND"),
        "{:?}",
        model.warnings
    );
}

#[test]
fn the_base_file_loads_cleanly_in_both_forms() {
    for bytes in [base().gltf(), base().glb()] {
        let model = load(&bytes);
        assert!(model.warnings.is_empty(), "{:?}", model.warnings);
        assert_eq!(model.joints.len(), 6);
        assert_eq!(model.skins[0].joints, [1, 2, 3, 4, 5]);
        let mesh = &model.skinned_meshes[0];
        assert_eq!(mesh.part.indices, [0, 1, 2, 2, 1, 3]);
        assert_eq!(mesh.part.vertices.normals, vec![Vec3::Z; 4]);
        let pose = model.sample(&model.clips[0], 1.0);
        let top = skinned_positions(&model, &pose)[0][3];
        // (1, 1, 0), half on joint 0 (unmoved) and half turned 90° about (0, 1, 0).
        let by_hand = 0.5 * Vec3::new(1.0, 1.0, 0.0) + 0.5 * Vec3::new(0.0, 2.0, 0.0);
        assert!(top.abs_diff_eq(by_hand, 1e-5), "{top}");
    }
}

#[test]
fn a_gltf_beside_its_bin_loads_as_the_glb_does() {
    let g = base();
    let mut json = g.finish_json(Some("the quad%20data.bin".to_owned()));
    json["asset"]["generator"] = "written apart".into();
    let text = serde_json::to_vec(&json).expect("json");
    // The URI decoded: the name of the file beside it, with its space.
    let asked = std::cell::RefCell::new(Vec::new());
    let beside = |name: &str, at_most: usize| {
        asked.borrow_mut().push((name.to_owned(), at_most));
        match name {
            // A reader that gives more than asked for: the loader keeps no more.
            "the quad data.bin" => Ok([&g.bin[..], &[7; 64]].concat()),
            _ => Err("no such file".to_owned()),
        }
    };
    let apart = gltf::load_with(&text, &beside).expect("loads with its .bin");
    assert_eq!(
        *asked.borrow(),
        [("the quad data.bin".to_owned(), g.bin.len())],
        "asked for the bytes the buffer claims, no more"
    );
    let whole = load(&g.glb());
    assert_eq!(apart.skinned_meshes, whole.skinned_meshes);
    assert_eq!(apart.clips, whole.clips);
    // Missing, or outside its folder: one line, naming the file.
    let err = gltf::load_with(
        &serde_json::to_vec(&g.finish_json(Some("gone.bin".into()))).unwrap(),
        &beside,
    )
    .expect_err("no such file");
    assert!(
        err.to_string().ends_with(
            "buffer 0 is the file 'gone.bin' beside it, which could not be read: no such file"
        ),
        "{err}"
    );
    for outside in ["../secret.bin", "/etc/passwd", "https://example.com/a.bin"] {
        let text = serde_json::to_vec(&g.finish_json(Some(outside.into()))).unwrap();
        let err = gltf::load_with(&text, &beside)
            .expect_err(outside)
            .to_string();
        assert!(
            err.contains("outside the file's folder"),
            "{outside}: {err}"
        );
    }
    assert_eq!(
        asked.borrow().len(),
        2,
        "nothing outside the folder is asked for"
    );
}

#[test]
fn cubic_spline_and_step_keys_from_a_file() {
    let mut g = base();
    let times = g.accessor(&f32s(&[0.0, 2.0]), FLOAT, "SCALAR", 2);
    // Translation of joint 2 (node 3) as a spline: (in, value, out) per key, x only.
    let spline = [
        0.0, 0.0, 0.0, // key 0 in-tangent
        0.0, 1.0, 0.0, // key 0 value
        3.0, 0.0, 0.0, // key 0 out-tangent
        -1.0, 0.0, 0.0, // key 1 in-tangent
        2.0, 1.0, 0.0, // key 1 value
        0.0, 0.0, 0.0, // key 1 out-tangent
    ];
    let spline_keys = g.accessor(&f32s(&spline), FLOAT, "VEC3", 6);
    let step_times = g.accessor(&f32s(&[0.0, 0.5, 1.5]), FLOAT, "SCALAR", 3);
    let scales = [1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0];
    let step_keys = g.accessor(&f32s(&scales), FLOAT, "VEC3", 3);
    g.json["animations"] = json!([{
        "name": "keys",
        "channels": [
            {"sampler": 0, "target": {"node": 3, "path": "translation"}},
            {"sampler": 1, "target": {"node": 4, "path": "scale"}}
        ],
        "samplers": [
            {"input": times, "output": spline_keys, "interpolation": "CUBICSPLINE"},
            {"input": step_times, "output": step_keys, "interpolation": "STEP"}
        ]
    }]);
    let model = load(&g.gltf());
    let clip = &model.clips[0];
    assert_eq!((clip.start(), clip.end()), (0.0, 2.0));
    for t in [0.0f32, 0.4, 1.0, 1.7, 2.0] {
        let pose = model.sample(clip, t);
        // Hermite by hand: key 0 value and out-tangent, key 1 value and in-tangent.
        let (p0, m0, p1, m1, dt) = (0.0, 3.0, 2.0, -1.0, 2.0);
        let u = t / dt;
        let (u2, u3) = (u * u, u * u * u);
        let x = (2.0 * u3 - 3.0 * u2 + 1.0) * p0
            + (u3 - 2.0 * u2 + u) * dt * m0
            + (-2.0 * u3 + 3.0 * u2) * p1
            + (u3 - u2) * dt * m1;
        let got = pose[3].translation;
        assert!((got.x - x).abs() < 1e-5, "t {t}: {} vs {x}", got.x);
        assert!((got.y - 1.0).abs() < 1e-6);
        let step = if t < 0.5 {
            1.0
        } else if t < 1.5 {
            2.0
        } else {
            3.0
        };
        assert_eq!(pose[4].scale, Vec3::splat(step), "t {t}");
    }
}

/// Gives the base file's quad two morph targets: `lift` raises the top two vertices by
/// one along z (with normals tipped along y), `push` (a sparse accessor) moves vertex 3
/// two along x; the mesh rests at weights (0.25, 0), its node at (0.5, 1), and an
/// animation `face` takes `lift` from 0 to 1 and `push` from 1 to 0 over two seconds.
fn morphing(g: &mut Gltf) {
    let lift = g.accessor(
        &f32s(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0]),
        FLOAT,
        "VEC3",
        4,
    );
    let tip = g.accessor(&f32s(&[0.0, 1.0, 0.0].repeat(4)), FLOAT, "VEC3", 4);
    let at = g.accessor(&u16s(&[3, 0]), UNSIGNED_SHORT, "SCALAR", 1);
    let by = g.accessor(&f32s(&[2.0, 0.0, 0.0]), FLOAT, "VEC3", 1);
    let view = |g: &Gltf, a: usize| g.json["accessors"][a]["bufferView"].clone();
    let push = g.json["accessors"].as_array().map_or(0, Vec::len);
    let sparse = json!({
        "componentType": FLOAT, "type": "VEC3", "count": 4,
        "sparse": {"count": 1, "indices": {"bufferView": view(g, at), "componentType": UNSIGNED_SHORT},
                   "values": {"bufferView": view(g, by)}}
    });
    if let Some(accessors) = g.json["accessors"].as_array_mut() {
        accessors.push(sparse);
    }
    g.primitive()["targets"] = json!([{"POSITION": lift, "NORMAL": tip}, {"POSITION": push}]);
    g.json["meshes"][0]["weights"] = json!([0.25, 0.0]);
    g.json["meshes"][0]["extras"] = json!({"targetNames": ["lift", "push"]});
    g.json["nodes"][0]["weights"] = json!([0.5, 1.0]);
    let times = g.accessor(&f32s(&[0.0, 2.0]), FLOAT, "SCALAR", 2);
    let keys = g.accessor(&f32s(&[0.0, 1.0, 1.0, 0.0]), FLOAT, "SCALAR", 4);
    g.json["animations"] = json!([{
        "name": "face",
        "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}}],
        "samplers": [{"input": times, "output": keys}]
    }]);
}

#[test]
fn morph_targets_their_names_weights_and_animated_weights_are_read() {
    let mut g = morphing_base();
    for bytes in [g.gltf(), g.glb()] {
        let model = load(&bytes);
        assert!(model.warnings.is_empty(), "{:?}", model.warnings);
        let part = &model.skinned_meshes[0].part;
        let names: Vec<&str> = part.targets.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["lift", "push"]);
        let z = Vec3::Z;
        assert_eq!(part.targets[0].positions, [Vec3::ZERO, Vec3::ZERO, z, z]);
        assert_eq!(part.targets[0].normals, [Vec3::Y; 4]);
        assert!(part.targets[0].tangents.is_empty());
        // The sparse target: zeros but for vertex 3.
        let push = [Vec3::ZERO, Vec3::ZERO, Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)];
        assert_eq!(part.targets[1].positions, push);
        // The node's weights win over the mesh's.
        assert_eq!(part.morph_weights, [0.5, 1.0]);
        // The clip animates the quad's node, on the one sampler.
        let clip = model.clip("face").expect("the face clip");
        assert_eq!((clip.start(), clip.end()), (0.0, 2.0));
        let quad = model.joint_named("quad").expect("the quad's node");
        assert_eq!(clip.sample_weights(quad, 0.5), Some(vec![0.25, 0.75]));
        assert!(
            model
                .notes
                .iter()
                .any(|n| n.contains("has morph targets: lift, push"))
        );
        assert!(
            model
                .notes
                .iter()
                .any(|n| n.contains("1 channels of morph target weights"))
        );
    }
    // Without names or weights, targets are `target N` and rest at 0.
    g.json["meshes"][0]["extras"] = Value::Null;
    g.json["meshes"][0]["weights"] = Value::Null;
    g.json["nodes"][0]["weights"] = Value::Null;
    let model = load(&g.glb());
    let part = &model.skinned_meshes[0].part;
    assert_eq!(part.targets[1].name, "target 1");
    assert_eq!(part.morph_weights, [0.0, 0.0]);
}

#[test]
fn the_model_page_plays_a_files_morph_weights_and_draws_them() {
    let mut page = skinlab::pages::model::ModelPage::default();
    page.open_bytes("face.glb", &morphing_base().glb())
        .expect("the file opens");
    let face = page.model.clips.iter().position(|c| c.name() == "face");
    page.set_clip(face.expect("the face clip"));
    // The clip drives both shapes of the quad, the one mesh: lift rises, push falls.
    for (t, expected) in [(0.0, [0.0, 1.0]), (1.0, [0.5, 0.5]), (2.0, [1.0, 0.0])] {
        page.time = t;
        assert_eq!(page.morph_weights(), vec![expected.to_vec()], "at {t} s");
    }
    // At 2 s lift is whole: the top vertices stand one unit out along z, before the
    // skin (which leaves the quad where it is at this time's pose but for joint 1's turn).
    page.time = 2.0;
    let frame = page.frame();
    let plain = skinned_positions(&page.model, &frame.pose);
    let drawn: Vec<Vec3> = frame.skinned[0].iter().map(|v| v.position).collect();
    assert!(
        (drawn[0] - plain[0][0]).length() < 1e-6,
        "vertex 0 has no lift"
    );
    assert!(
        ((drawn[2] - plain[0][2]).length() - 1.0).abs() < 1e-5,
        "vertex 2 is lifted by 1"
    );
    // A name that holds the link's own separators goes in the link by its number.
    use skinlab::page::Page as _;
    let mut named = morphing_base();
    named.json["meshes"][0]["extras"] = json!({"targetNames": ["lift:up", "push,out"]});
    let mut odd = skinlab::pages::model::ModelPage::default();
    odd.open_bytes("odd.glb", &named.glb())
        .expect("the file opens");
    let link = skinlab::link::Link::parse("model?asset=file&morph=0:0.5,1:2").expect("link");
    skinlab::page::open(&mut odd, &link).expect("the link opens");
    assert_eq!(odd.held_morphs.get("lift:up"), Some(&0.5));
    assert!(
        odd.link().to_string().contains("morph=0:0.5,1:2"),
        "{}",
        odd.link()
    );
    // Held by hand, push stays at 0.25 while the clip moves lift.
    skinlab::page::open(
        &mut page,
        &skinlab::link::Link::parse("model?asset=file&clip=face&t=1&morph=push:0.25")
            .expect("link"),
    )
    .expect("the link opens");
    assert_eq!(page.morph_weights(), vec![vec![0.5, 0.25]]);
}

fn morphing_base() -> Gltf {
    let mut g = base();
    morphing(&mut g);
    g
}

pub(super) enum Expect {
    /// `Err` whose message contains this.
    Refused(&'static str),
    /// `Ok` with a warning (or note) that contains this.
    Warned(&'static str),
}

pub(super) fn set_weights(g: &mut Gltf, weights: &[f32]) {
    let w = g.accessor(&f32s(weights), FLOAT, "VEC4", weights.len() / 4);
    g.primitive()["attributes"]["WEIGHTS_0"] = w.into();
}

pub(super) fn set_joints(g: &mut Gltf, joints: &[u8]) {
    let j = g.accessor(joints, UNSIGNED_BYTE, "VEC4", joints.len() / 4);
    g.primitive()["attributes"]["JOINTS_0"] = j.into();
}

/// Every problem the loader knows, each as a small file, with what it must say.
pub(super) fn broken_files() -> Vec<(&'static str, Vec<u8>, Expect)> {
    use Expect::{Refused, Warned};
    let mut cases: Vec<(&'static str, Vec<u8>, Expect)> = Vec::new();
    let mut case = |name, edit: &dyn Fn(&mut Gltf), expect| {
        let mut g = base();
        edit(&mut g);
        cases.push((name, g.gltf(), expect));
    };
    case(
        "more morph targets than the page applies",
        &|g| {
            morphing(g);
            g.primitive()["targets"] = json!(vec![json!({}); 65]);
        },
        Refused("mesh 0 primitive 0 has 65 morph targets, more than the page applies (64)"),
    );
    case(
        "a morph target with fewer offsets than vertices",
        &|g| {
            morphing(g);
            let short = g.accessor(&f32s(&[0.0; 9]), FLOAT, "VEC3", 3);
            g.primitive()["targets"][1]["POSITION"] = short.into();
        },
        Warned(
            "mesh 0 primitive 0 morph target 1 'push' was left out: POSITION has 3 offsets, \
             but the mesh has 4 vertices",
        ),
    );
    case(
        "a morph target naming an accessor that is not there",
        &|g| {
            morphing(g);
            g.primitive()["targets"][0]["NORMAL"] = 99.into();
        },
        Warned("morph target 0 'lift' was left out: NORMAL names accessor 99, but the file has"),
    );
    case(
        "a node's morph weights of the wrong length",
        &|g| {
            morphing(g);
            g.json["nodes"][0]["weights"] = json!([1.0]);
        },
        Warned("the node's weights list 1 numbers for 2 morph targets; it was passed over"),
    );
    case(
        "a weights channel on a node with no morph targets",
        &|g| {
            morphing(g);
            g.json["animations"][0]["channels"][0]["target"]["node"] = 2.into();
        },
        Warned(
            "channel 0 (node 2 'j1' weights) was left out: its node has no mesh with morph targets",
        ),
    );
    case(
        "a weights channel with a key too few",
        &|g| {
            morphing(g);
            let keys = g.accessor(&f32s(&[0.0, 1.0, 1.0]), FLOAT, "SCALAR", 3);
            g.json["animations"][0]["samplers"][0]["output"] = keys.into();
        },
        Warned("2 key times need 4 values (2 per key), but there are 3"),
    );
    case(
        "primitives of one mesh with different numbers of morph targets",
        &|g| {
            morphing(g);
            let second = g.primitive().clone();
            g.json["meshes"][0]["primitives"] = json!([second.clone(), second]);
            g.json["meshes"][0]["primitives"][1]["targets"] = json!([{}]);
        },
        Warned(
            "primitive 1 has 1 morph targets, but primitive 0 of its mesh has 2 (glTF asks \
             the same of every primitive)",
        ),
    );
    case(
        "morph targets with more offsets than a GPU is sure to hold",
        &|g| {
            morphing(g);
            // A rigid mesh of 20,000 vertices at the origin, and 64 targets of zeros:
            // 1,280,000 offsets.
            let zeros = |g: &mut Gltf| {
                let accessors = g.json["accessors"].as_array_mut().expect("accessors");
                accessors.push(json!({"componentType": FLOAT, "type": "VEC3", "count": 20_000}));
                accessors.len() - 1
            };
            let p = zeros(g);
            let targets: Vec<Value> = (0..64).map(|_| json!({"POSITION": zeros(g)})).collect();
            *g.primitive() = json!({"attributes": {"POSITION": p}, "targets": targets});
            g.json["nodes"][0] = json!({"name": "quad", "mesh": 0});
            g.json["meshes"][0]["weights"] = Value::Null;
            g.json["nodes"][0]["weights"] = Value::Null;
            g.json["animations"] = json!([]);
        },
        Warned(
            "its 64 morph targets of 20000 vertices make more offsets than a GPU is sure to \
             hold (1048576); they were left out",
        ),
    );
    case(
        "weights that do not sum to 1",
        &|g| {
            set_weights(
                g,
                &[
                    1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.5, 0.43, 0.0, 0.0, 0.5, 0.48, 0.0,
                    0.0,
                ],
            )
        },
        Warned("mesh 0 primitive 0: 2 vertices have weights that sum to 0.93–0.98, not 1"),
    );
    case(
        "more than four influences",
        &|g| {
            set_joints(g, &[0, 1, 2, 3].repeat(4));
            set_weights(g, &[0.4, 0.3, 0.1, 0.1].repeat(4));
            let j1 = g.accessor(&[4, 0, 0, 0].repeat(4), UNSIGNED_BYTE, "VEC4", 4);
            let w1 = g.accessor(&f32s(&[0.1, 0.0, 0.0, 0.0].repeat(4)), FLOAT, "VEC4", 4);
            g.primitive()["attributes"]["JOINTS_1"] = j1.into();
            g.primitive()["attributes"]["WEIGHTS_1"] = w1.into();
        },
        Warned(
            "4 vertices have more than four influences (JOINTS_1/WEIGHTS_1); the four largest \
             were kept and renormalised, dropping at most 10.0%",
        ),
    );
    case(
        "a joint index outside the skin",
        &|g| set_joints(g, &[0, 0, 0, 0, 0, 0, 0, 0, 9, 1, 0, 0, 0, 1, 0, 0]),
        Refused("JOINTS_0: vertex 2 uses joint 9, but skin 0 has 5 joints (0 to 4)"),
    );
    case(
        "fewer inverse binds than joints",
        &|g| {
            let ibm = g.accessor(&mats(&[Mat4::IDENTITY; 4]), FLOAT, "MAT4", 4);
            g.json["skins"][0]["inverseBindMatrices"] = ibm.into();
        },
        Refused("skin 0 has 5 joints but 4 inverse bind matrices"),
    );
    case(
        "more inverse binds than joints",
        &|g| {
            let ibm = g.accessor(&mats(&[Mat4::IDENTITY; 6]), FLOAT, "MAT4", 6);
            g.json["skins"][0]["inverseBindMatrices"] = ibm.into();
        },
        Warned("skin 0 has 5 joints but 6 inverse bind matrices"),
    );
    case(
        "no inverse binds",
        &|g| {
            if let Some(skin) = g.json["skins"][0].as_object_mut() {
                skin.remove("inverseBindMatrices");
            }
        },
        Warned("skin 0 has no inverse bind matrices; as the glTF spec says, each is the identity"),
    );
    case(
        "a singular inverse bind",
        &|g| {
            let mut binds = [Mat4::IDENTITY; 5];
            binds[2] = Mat4::from_scale(Vec3::new(1.0, 0.0, 1.0));
            let ibm = g.accessor(&mats(&binds), FLOAT, "MAT4", 5);
            g.json["skins"][0]["inverseBindMatrices"] = ibm.into();
        },
        Refused("skin 0 joint 2 (node 3 'j2'): its inverse bind matrix is singular"),
    );
    case(
        "a non-finite inverse bind",
        &|g| {
            let mut binds = [Mat4::IDENTITY; 5];
            binds[1].w_axis.x = f32::INFINITY;
            let ibm = g.accessor(&mats(&binds), FLOAT, "MAT4", 5);
            g.json["skins"][0]["inverseBindMatrices"] = ibm.into();
        },
        Refused(
            "skin 0 joint 1 (node 2 'j1'): its inverse bind matrix holds a number that is not finite",
        ),
    );
    case(
        "a skinned mesh under a transformed parent",
        &|g| {
            let nodes = g.json["nodes"].as_array_mut().expect("nodes");
            nodes.push(json!({"name": "holder", "translation": [5.0, 0.0, 0.0], "children": [0]}));
            g.json["scenes"][0]["nodes"] = json!([6, 1]);
        },
        Warned(
            "node 0 'quad' carries mesh 0, skinned by skin 0, under a transform (from node 6 \
             'holder'); as the glTF spec says, that transform is ignored",
        ),
    );
    case(
        "several skins",
        &|g| {
            g.json["skins"]
                .as_array_mut()
                .expect("skins")
                .push(json!({"joints": [1, 2]}));
            g.json["nodes"]
                .as_array_mut()
                .expect("nodes")
                .push(json!({"name": "copy", "mesh": 0, "skin": 1}));
        },
        Warned("2 skins: mesh 0 on node 0 'quad' uses skin 0; mesh 0 on node 6 'copy' uses skin 1"),
    );
    case(
        "Draco compression",
        &|g| {
            g.json["extensionsUsed"] = json!(["KHR_draco_mesh_compression"]);
            g.json["extensionsRequired"] = json!(["KHR_draco_mesh_compression"]);
        },
        Refused(
            "the file needs KHR_draco_mesh_compression, a compressed mesh format this loader \
             does not read; export it again without mesh compression",
        ),
    );
    case(
        "extensions needed only for looks",
        &|g| g.json["extensionsRequired"] = json!(["KHR_texture_basisu", "EXT_lights_image_based"]),
        Warned(
            "the file needs 'EXT_lights_image_based', which changes only how it looks \
             (materials, textures or lights); this page draws the shapes without it",
        ),
    );
    case(
        "meshopt compression",
        &|g| g.json["extensionsRequired"] = json!(["EXT_meshopt_compression"]),
        Refused("the file needs EXT_meshopt_compression"),
    );
    case(
        "an unknown required extension",
        &|g| g.json["extensionsRequired"] = json!(["EXT_mesh_gpu_instancing"]),
        Refused(
            "the file needs the extension 'EXT_mesh_gpu_instancing', which this loader does not know",
        ),
    );
    case(
        "glTF 1.0",
        &|g| g.json["asset"]["version"] = "1.0".into(),
        Refused("this is glTF version '1.0'; only glTF 2.0 can be loaded"),
    );
    case(
        "a minVersion above 2.0",
        &|g| g.json["asset"]["minVersion"] = "2.5".into(),
        Refused(
            "the file needs a reader of glTF '2.5' or later (its minVersion); only glTF 2.0 \
             can be loaded",
        ),
    );
    case(
        "a byteOffset of 2^64 - 1",
        &|g| g.json["accessors"][0]["byteOffset"] = u64::MAX.into(),
        Refused(
            "the file breaks the glTF rules at accessors[0].byteOffset: is 1.8446744073709552e19, \
             larger than any file holds (2^53 at most)",
        ),
    );
    case(
        "an accessor of ten million elements and no view",
        &|g| {
            g.json["accessors"][0]["count"] = 10_000_000.into();
            g.json["accessors"][0]
                .as_object_mut()
                .expect("an object")
                .remove("bufferView");
        },
        Refused(
            "claims 10000000 elements of 3 numbers, 30000000 numbers in all, more than this \
             loader reads from one accessor (16777216 numbers at most)",
        ),
    );
    case(
        "a count of billions",
        &|g| g.json["accessors"][0]["count"] = 4_000_000_000u64.into(),
        Refused(
            "mesh 0 primitive 0 POSITION (accessor 0) claims 4000000000 elements of 12 bytes \
             from byte 0, but buffer view 0 has only 48 bytes",
        ),
    );
    case(
        "a sparse accessor of billions of zeros",
        &|g| {
            let idx = g.accessor(&u16s(&[0, 0]), UNSIGNED_SHORT, "SCALAR", 1);
            let val = g.accessor(&f32s(&[0.0, 0.0, 0.0]), FLOAT, "VEC3", 1);
            let (iv, vv) = (
                g.json["accessors"][idx]["bufferView"].clone(),
                g.json["accessors"][val]["bufferView"].clone(),
            );
            g.json["accessors"][1] = json!({
                "componentType": FLOAT, "type": "VEC3", "count": 3_000_000_000u64,
                "sparse": {"count": 1, "indices": {"bufferView": iv, "componentType": UNSIGNED_SHORT},
                           "values": {"bufferView": vv}}
            });
        },
        Refused(
            "mesh 0 primitive 0 NORMAL (accessor 1) claims 3000000000 elements of 3 numbers, 9000000000 numbers in all",
        ),
    );
    case(
        "one accessor of zeros named by 48 primitives, in 3 KB",
        &|g| {
            // 2^24 − 1 numbers of zeros, the most one accessor without a buffer view may
            // hold: no bytes in the file, 64 MB once read, and read once per primitive.
            g.json["accessors"]
                .as_array_mut()
                .expect("accessors")
                .push(json!({"componentType": FLOAT, "type": "VEC3", "count": 5_592_405}));
            let zeros = g.json["accessors"].as_array().expect("accessors").len() - 1;
            let primitives = g.json["meshes"][0]["primitives"]
                .as_array_mut()
                .expect("primitives");
            primitives.clear();
            primitives.extend((0..48).map(|_| json!({"attributes": {"POSITION": zeros}})));
        },
        Refused(
            "the meshes the nodes place would decode to 805306320 numbers (a mesh placed by \
             several nodes, or an accessor shared by several primitives, counts once for \
             each), more than this loader reads (67108864)",
        ),
    );
    case(
        "scales of 1e20 down the tree",
        &|g| {
            for node in 1..=3 {
                g.json["nodes"][node]["scale"] = json!([1e20, 1e20, 1e20]);
            }
        },
        Refused(
            "the place in the world of node 2 'j1' is not a finite number: the scales down \
             the tree to it multiply past what a float holds",
        ),
    );
    case(
        "a skin of 16385 joints",
        &|g| g.json["skins"][0]["joints"] = json!(vec![1; 16385]),
        Refused(
            "skin 0 has 16385 joints; a skin of more than 16384 fits no bone texture a GPU is \
             sure to hold, so it could not be drawn",
        ),
    );
    case(
        "an accessor past its buffer view",
        &|g| g.json["accessors"][0]["byteOffset"] = 40.into(),
        Refused(
            "POSITION (accessor 0) claims 4 elements of 12 bytes from byte 40, but buffer view 0 has only 48 bytes",
        ),
    );
    case(
        "a buffer view past its buffer",
        &|g| g.json["bufferViews"][0]["byteLength"] = 4000.into(),
        Refused("buffer view 0 claims bytes 0 to 4000 of buffer 0"),
    );
    case(
        "a stride shorter than an element",
        &|g| g.json["bufferViews"][0]["byteStride"] = 8.into(),
        Refused("buffer view 0 has a stride of 8 bytes, less than one 12-byte element"),
    );
    case(
        "an index past the vertices",
        &|g| {
            let i = g.accessor(&u16s(&[0, 1, 2, 2, 1, 9]), UNSIGNED_SHORT, "SCALAR", 6);
            g.primitive()["indices"] = i.into();
        },
        Refused("mesh 0 primitive 0: index 9 (entry 5) is past the last vertex (there are 4)"),
    );
    case(
        "a position that is not a number",
        &|g| {
            let p = [
                0.0,
                0.0,
                0.0,
                1.0,
                0.0,
                0.0,
                f32::NAN,
                1.0,
                0.0,
                1.0,
                1.0,
                0.0,
            ];
            let a = g.accessor(&f32s(&p), FLOAT, "VEC3", 4);
            g.json["accessors"][a]["min"] = json!([0.0, 0.0, 0.0]);
            g.json["accessors"][a]["max"] = json!([1.0, 1.0, 0.0]);
            g.primitive()["attributes"]["POSITION"] = a.into();
        },
        Refused("mesh 0 primitive 0 POSITION: vertex 2 holds a number that is not finite"),
    );
    case(
        "a negative weight",
        &|g| {
            set_weights(
                g,
                &[
                    1.0, 0.0, 0.0, 0.0, 1.0, -0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0,
                ],
            )
        },
        Refused(
            "mesh 0 primitive 0 WEIGHTS_0: vertex 1 has weight -0.5; weights must be finite and not negative",
        ),
    );
    case(
        "a vertex with no weight",
        &|g| {
            set_weights(
                g,
                &[
                    1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0,
                ],
            )
        },
        Warned(
            "mesh 0 primitive 0: 1 vertex has no weight on any joint; bound to joint 0 of skin 0",
        ),
    );
    case(
        "weights stored as integers without normalized",
        &|g| {
            let w = g.accessor(&[255, 0, 0, 0].repeat(4), UNSIGNED_BYTE, "VEC4", 4);
            g.primitive()["attributes"]["WEIGHTS_0"] = w.into();
        },
        Refused(
            "mesh 0 primitive 0 WEIGHTS_0 (accessor 8) is stored as UNSIGNED_BYTE, but must be \
             FLOAT, or normalised BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT",
        ),
    );
    case(
        "JOINTS without WEIGHTS",
        &|g| {
            if let Some(a) = g.primitive()["attributes"].as_object_mut() {
                a.remove("WEIGHTS_0");
            }
        },
        Refused("mesh 0 primitive 0: JOINTS_0 and WEIGHTS_0 must come together"),
    );
    case(
        "an attribute of the wrong length",
        &|g| {
            let n = g.accessor(&f32s(&[0.0, 0.0, 1.0].repeat(3)), FLOAT, "VEC3", 3);
            g.primitive()["attributes"]["NORMAL"] = n.into();
        },
        Refused("mesh 0 primitive 0: NORMAL has 3 elements, but POSITION has 4"),
    );
    case(
        "a missing accessor",
        &|g| g.primitive()["attributes"]["POSITION"] = 99.into(),
        Refused("mesh 0 primitive 0: POSITION names accessor 99, but the file has 8 accessors"),
    );
    case(
        "a child index out of range",
        &|g| g.json["nodes"][1]["children"] = json!([2, 40]),
        Refused("the file breaks the glTF rules at nodes[1].children[1]: index out of bounds"),
    );
    case(
        "a count that is not a whole number",
        &|g| g.json["accessors"][0]["count"] = 2.5.into(),
        Refused("the file breaks the glTF rules at accessors[0].count: must be a whole number"),
    );
    case(
        "a name that is not a string",
        &|g| g.json["nodes"][0]["name"] = json!([1]),
        Refused("the file breaks the glTF rules at nodes[0].name: must be a string"),
    );
    case(
        "a matrix of 15 numbers",
        &|g| g.json["nodes"][0]["matrix"] = json!(vec![0.0; 15]),
        Refused("the file breaks the glTF rules at nodes[0].matrix: must be an array of 16"),
    );
    case(
        "an unknown component type",
        &|g| g.json["accessors"][1]["componentType"] = 5124.into(),
        Refused(
            "the file breaks the glTF rules at accessors[1].componentType: is not a glTF \
             component type",
        ),
    );
    case(
        "a node with two parents",
        &|g| g.json["nodes"][1]["children"] = json!([2, 4]),
        Refused("node 4 is a child of both node 1 and node 3; a node can have only one parent"),
    );
    case(
        "a cycle of nodes",
        &|g| g.json["nodes"][5]["children"] = json!([1]),
        Refused("the nodes' children form a cycle: nodes 1, 2, 3, 4, 5 are their own ancestors"),
    );
    case(
        "an external buffer",
        &|_| {},
        Refused(
            "buffer 0 is the file 'quad.bin' beside it, which could not be read: only the file itself was given",
        ),
    );
    case(
        "a buffer shorter than it says",
        &|_| {},
        Refused("the file is truncated: buffer 0 should hold"),
    );
    case(
        "key times that go backwards",
        &|g| {
            let t = g.accessor(&f32s(&[1.0, 0.5]), FLOAT, "SCALAR", 2);
            g.json["animations"][0]["samplers"][0]["input"] = t.into();
        },
        Warned(
            "animation 0 'wave' was left out: channel 0 (node 2 'j1' rotation): key times must \
             increase, but key 1 at 0.5 s follows 1 s",
        ),
    );
    case(
        "too few key values",
        &|g| {
            let t = g.accessor(&f32s(&[0.0, 1.0, 2.0]), FLOAT, "SCALAR", 3);
            g.json["animations"][0]["samplers"][0]["input"] = t.into();
        },
        Warned(
            "animation 0 'wave' was left out: channel 0 (node 2 'j1' rotation): 3 key times need 3 values (1 per key), but there are 2",
        ),
    );
    case(
        "a channel aimed at no node",
        &|g| g.json["animations"][0]["channels"][0]["target"]["node"] = 60.into(),
        Warned(
            "animation 0 'wave' was left out: channel 0 targets node 60, but the file has 6 nodes",
        ),
    );
    case(
        "a channel aimed at no property",
        &|g| g.json["animations"][0]["channels"][0]["target"]["path"] = "colour".into(),
        Warned("animation 0 'wave' was left out: channel 0 targets an unknown property"),
    );
    case(
        "a channel with no sampler",
        &|g| g.json["animations"][0]["channels"][0]["sampler"] = 7.into(),
        Warned(
            "animation 0 'wave' was left out: the file breaks the glTF rules at \
             animations[0].channels[0].sampler: index out of bounds",
        ),
    );
    case(
        "an unknown interpolation",
        &|g| g.json["animations"][0]["samplers"][0]["interpolation"] = "SMOOTH".into(),
        Warned(
            "animation 0 'wave' was left out: the file breaks the glTF rules at \
             animations[0].samplers[0].interpolation: must be LINEAR, STEP or CUBICSPLINE",
        ),
    );
    case(
        "a cubic spline with one value a key, not three",
        &|g| g.json["animations"][0]["samplers"][0]["interpolation"] = "CUBICSPLINE".into(),
        Warned(
            "animation 0 'wave' was left out: channel 0 (node 2 'j1' rotation): \
             2 key times need 6 values (3 per key), but there are 2",
        ),
    );
    case(
        "a node named by a megabyte of text",
        &|g| g.json["nodes"][2]["name"] = "j".repeat(1 << 20).into(),
        Warned("1 name longer than 200 characters was cut to that length (marked …)"),
    );
    case(
        "vertex colours of one number a vertex",
        &|g| {
            let indices = g.primitive()["indices"].clone();
            g.primitive()["attributes"]["COLOR_0"] = indices;
        },
        Warned("it is drawn without its vertex colours"),
    );
    case(
        "points, not triangles",
        &|g| g.primitive()["mode"] = 0.into(),
        Warned("mesh 0 primitive 0 draws Points, not triangles; it was left out"),
    );
    // The two whose bytes are not the base's JSON with a data URI.
    for (name, bytes, _) in cases.iter_mut() {
        match *name {
            "an external buffer" => {
                let mut json: Value = serde_json::from_slice(bytes).expect("json");
                json["buffers"][0]["uri"] = "quad.bin".into();
                *bytes = serde_json::to_vec(&json).expect("json");
            }
            "a buffer shorter than it says" => {
                let mut json: Value = serde_json::from_slice(bytes).expect("json");
                json["buffers"][0]["byteLength"] = 100_000.into();
                *bytes = serde_json::to_vec(&json).expect("json");
            }
            _ => {}
        }
    }
    let glb = base().glb();
    cases.push((
        "a truncated GLB",
        glb[..glb.len() - 10].to_vec(),
        Refused("the file is truncated: its GLB header says"),
    ));
    let mut cut_chunk = glb.clone();
    let len = cut_chunk.len() as u32 - 8;
    cut_chunk.truncate(len as usize);
    cut_chunk[8..12].copy_from_slice(&len.to_le_bytes());
    cases.push((
        "a GLB whose BIN chunk is cut",
        cut_chunk,
        Refused("the file is truncated: the second chunk claims"),
    ));
    let mut v1 = glb.clone();
    v1[4] = 1;
    cases.push((
        "a GLB of version 1",
        v1,
        Refused("this GLB is version 1; only glTF 2.0"),
    ));
    cases.push(("an empty file", Vec::new(), Refused("the file is empty")));
    // The GLB's chunks taken apart: 12 bytes of header, then (length, type, data).
    let chunks = |glb: &[u8]| {
        let mut out = Vec::new();
        let mut at = 12;
        while at + 8 <= glb.len() {
            let len = u32::from_le_bytes(glb[at..at + 4].try_into().unwrap()) as usize;
            out.push(glb[at..at + 8 + len].to_vec());
            at += 8 + len;
        }
        out
    };
    let joined = |parts: &[Vec<u8>]| {
        let mut out = glb[..12].to_vec();
        parts.iter().for_each(|p| out.extend_from_slice(p));
        let len = out.len() as u32;
        out[8..12].copy_from_slice(&len.to_le_bytes());
        out
    };
    let parts = chunks(&glb);
    let mut other = 4u32.to_le_bytes().to_vec();
    other.extend_from_slice(b"XTRA");
    other.extend_from_slice(&[0; 4]);
    cases.push((
        "a GLB whose BIN chunk comes after another",
        joined(&[parts[0].clone(), other, parts[1].clone()]),
        Refused("the GLB's BIN chunk must come right after its JSON chunk, but it is chunk 3"),
    ));
    let mut empty_json = 4u32.to_le_bytes().to_vec();
    empty_json.extend_from_slice(b"JSON");
    empty_json.extend_from_slice(b"    ");
    cases.push((
        "a GLB whose JSON chunk is empty",
        joined(&[empty_json, parts[1].clone()]),
        Refused("the GLB's JSON chunk is empty"),
    ));
    cases.push((
        "a PNG",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
        Refused("this is not a glTF file: it starts with the bytes 89 50 4E 47"),
    ));
    cases.push((
        "JSON that is not glTF",
        br#"{"hello": "world"}"#.to_vec(),
        Refused("the JSON has no `asset`, which every glTF file has: this is not a glTF file"),
    ));
    cases.push((
        "broken JSON",
        br#"{"asset": {"version": "2.0"},, }"#.to_vec(),
        Refused("the glTF JSON is not valid at line 1, column"),
    ));
    let gltf = base().gltf();
    cases.push((
        "a truncated .gltf",
        gltf[..gltf.len() / 2].to_vec(),
        Refused("the file is truncated: its JSON stops in the middle"),
    ));
    let mut bad_base64 = String::from_utf8(base().gltf()).expect("utf-8");
    let at = bad_base64.find(";base64,").expect("data uri") + 20;
    bad_base64.replace_range(at..at + 1, "!");
    cases.push((
        "a data URI that is not base64",
        bad_base64.into_bytes(),
        Refused("buffer 0: its data URI has a character that is not base64 at position 12"),
    ));
    cases
}

#[test]
fn every_problem_has_its_message() {
    let mut failures = Vec::new();
    for (name, bytes, expect) in broken_files() {
        let result = common::catch_quietly(|| gltf::load(&bytes));
        let outcome = match result {
            Err(_) => {
                failures.push(format!("{name}: panicked"));
                continue;
            }
            Ok(outcome) => outcome,
        };
        match (expect, outcome) {
            (Expect::Refused(text), Err(e)) => {
                if !e.message().contains(text) {
                    failures.push(format!("{name}: said {e:?}, expected {text:?}"));
                }
                if e.message().contains('\n') {
                    failures.push(format!("{name}: more than one line"));
                }
            }
            (Expect::Refused(text), Ok(_)) => {
                failures.push(format!("{name}: loaded, expected refusal {text:?}"))
            }
            (Expect::Warned(text), Ok(model)) => {
                let all: Vec<&String> = model.warnings.iter().chain(&model.notes).collect();
                if !all.iter().any(|w| w.contains(text)) {
                    failures.push(format!("{name}: said {all:?}, expected {text:?}"));
                }
            }
            (Expect::Warned(text), Err(e)) => {
                failures.push(format!("{name}: refused with {e:?}, expected {text:?}"))
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn quantised_and_normalised_attributes_load() {
    let mut g = base();
    // Positions as plain shorts, normals as normalised bytes, weights as normalised
    // unsigned shorts, joints as unsigned shorts: KHR_mesh_quantization's storage.
    let p = g.accessor(
        &i16s(&[0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]),
        SHORT,
        "VEC3",
        4,
    );
    g.json["accessors"][p]["min"] = json!([0, 0, 0]);
    g.json["accessors"][p]["max"] = json!([1, 1, 0]);
    let n = g.accessor(&[0, 0, 127, 0].repeat(4), BYTE, "VEC3", 4);
    let view = g.json["accessors"][n]["bufferView"].as_u64().unwrap_or(0) as usize;
    g.json["bufferViews"][view]["byteStride"] = 4.into();
    g.json["accessors"][n]["normalized"] = true.into();
    let w = g.accessor(
        &u16s(&[
            65535, 0, 0, 0, 65535, 0, 0, 0, 32768, 32767, 0, 0, 32768, 32767, 0, 0,
        ]),
        UNSIGNED_SHORT,
        "VEC4",
        4,
    );
    g.json["accessors"][w]["normalized"] = true.into();
    let j = g.accessor(
        &u16s(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0]),
        UNSIGNED_SHORT,
        "VEC4",
        4,
    );
    *g.primitive() = json!({
        "attributes": {"POSITION": p, "NORMAL": n, "JOINTS_0": j, "WEIGHTS_0": w},
        "indices": 2
    });
    g.json["extensionsUsed"] = json!(["KHR_mesh_quantization"]);
    g.json["extensionsRequired"] = json!(["KHR_mesh_quantization"]);
    for bytes in [g.gltf(), g.glb()] {
        let model = load(&bytes);
        assert!(model.warnings.is_empty(), "{:?}", model.warnings);
        let v = &model.skinned_meshes[0].part.vertices;
        assert_eq!(v.positions[3], Vec3::new(1.0, 1.0, 0.0));
        assert_eq!(v.normals, vec![Vec3::Z; 4]);
        assert_eq!(v.influences[0].used().collect::<Vec<_>>(), vec![(0, 1.0)]);
        let half = v.influences[2].weights;
        assert!((half[0] - 32768.0 / 65535.0).abs() < 1e-6, "{half:?}");
        assert!((half[0] + half[1] - 1.0).abs() < 1e-6);
        assert_eq!(model.skinned_meshes[0].part.indices, [0, 1, 2, 2, 1, 3]);
    }
}

/// Loads `bytes`, catching a panic; returns the outcome as text for the failure list.
fn survives(
    label: &str,
    bytes: &[u8],
    failures: &mut Vec<String>,
) -> Option<Result<Model, String>> {
    match common::catch_quietly(|| gltf::load(bytes)) {
        Err(_) => {
            failures.push(format!("{label}: panicked"));
            None
        }
        Ok(Err(e)) => {
            if e.message().is_empty() || e.message().contains('\n') {
                failures.push(format!("{label}: message {e:?} is not one line"));
            }
            Some(Err(e.message().to_owned()))
        }
        Ok(Ok(model)) => Some(Ok(model)),
    }
}

#[test]
fn truncations_and_byte_flips_never_panic() {
    // A caught panic is reported in the failure list, not printed (common::catch_quietly).
    let mut failures = Vec::new();
    let files = [
        ("SimpleSkin.gltf", bundled("simple_skin").to_vec()),
        ("RobotExpressive.glb", bundled("robot").to_vec()),
        ("base.glb", base().glb()),
        ("base.gltf", base().gltf()),
    ];
    let mut rng = XorShift(0x5EED_CAFE_F00D_1234);
    let mut cases = 0;
    for (name, file) in &files {
        // Truncations: the ends of the header and chunks, then lengths spread over the file.
        let mut lengths: Vec<usize> = vec![0, 1, 4, 11, 12, 19, 20, 21];
        lengths.extend((1..40).map(|k| file.len() * k / 40));
        lengths.extend((0..20).map(|_| rng.below(file.len())));
        for len in lengths.into_iter().filter(|&l| l < file.len()) {
            cases += 1;
            let label = format!("{name} cut to {len} bytes");
            // A JSON text cut only in its trailing whitespace is still whole.
            let whole = file[len..].iter().all(u8::is_ascii_whitespace);
            match survives(&label, &file[..len], &mut failures) {
                Some(Ok(_)) if !whole => failures.push(format!("{label}: loaded")),
                Some(Err(message))
                    if !message.contains("truncated")
                        && !message.contains("empty")
                        && !message.contains("JSON") =>
                {
                    failures.push(format!("{label}: {message}"))
                }
                _ => {}
            }
        }
        // Numbers in the JSON (counts, offsets, indices, lengths) set to troublesome ones,
        // so the parts after the JSON parser see broken files too.
        for round in 0..60 {
            cases += 1;
            let bytes = if file.starts_with(b"glTF") {
                let (json, bin) = glb_chunks(file);
                glb(&mutate_number(json, &mut rng), bin)
            } else {
                mutate_number(file, &mut rng)
            };
            let label = format!("{name} number round {round}");
            if let Some(Ok(model)) = survives(&label, &bytes, &mut failures) {
                let pose = match model.clips.first() {
                    Some(clip) => model.sample(clip, clip.end()),
                    None => model.rest_pose.clone(),
                };
                if common::catch_quietly(|| skinned_positions(&model, &pose)).is_err() {
                    failures.push(format!("{label}: skinning panicked"));
                }
            }
        }
        // Byte flips: one to four random bytes set to random values.
        for round in 0..60 {
            cases += 1;
            let mut bytes = file.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len());
                bytes[at] = rng.next() as u8;
            }
            let label = format!("{name} flip round {round}");
            if let Some(Ok(model)) = survives(&label, &bytes, &mut failures) {
                // Whatever loads must still sample and skin without a panic.
                let pose = match model.clips.first() {
                    Some(clip) => model.sample(clip, clip.start() + 0.5 * clip.duration()),
                    None => model.rest_pose.clone(),
                };
                let caught = common::catch_quietly(|| skinned_positions(&model, &pose));
                if caught.is_err() {
                    failures.push(format!("{label}: skinning panicked"));
                }
            }
        }
    }
    assert!(cases > 500, "{cases}");
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn many_meshes_with_one_problem_say_it_in_four_lines() {
    let mut g = base();
    let nodes = g.json["nodes"].as_array_mut().expect("nodes");
    for i in 0..10 {
        // A skinned mesh whose node is moved: glTF says to ignore that move, and the
        // loader notes it once for each such mesh.
        nodes.push(json!({"name": format!("copy{i}"), "mesh": 0, "skin": 0, "translation": [1.0, 0.0, 0.0]}));
    }
    let model = load(&g.glb());
    let moved: Vec<&String> = model
        .notes
        .iter()
        .filter(|n| n.contains("transform") || n.starts_with('…'))
        .collect();
    assert_eq!(moved.len(), 4, "{:#?}", model.notes);
    assert!(moved[0].contains("'copy0'"), "{}", moved[0]);
    assert_eq!(moved[3], "… and 7 more notes like these");
}

#[test]
fn a_buffer_nothing_reads_does_not_refuse_the_file() {
    let g = base();
    // A second buffer with no uri (only buffer 0 may be the BIN chunk), and a third
    // naming a file that is not there: neither is read, so the file loads.
    let mut json = g.finish_json(None);
    json["buffers"].as_array_mut().expect("buffers").extend([
        json!({"byteLength": 4}),
        json!({"byteLength": 4, "uri": "gone.bin"}),
    ]);
    let model = load(&glb(&serde_json::to_vec(&json).unwrap(), &g.bin));
    assert_eq!(model.skinned_meshes.len(), 1);
    // Read by an accessor, the same buffer refuses the file with its reason.
    json["bufferViews"]
        .as_array_mut()
        .expect("views")
        .push(json!({"buffer": 1, "byteLength": 4}));
    let view = json["bufferViews"].as_array().unwrap().len() - 1;
    json["accessors"][0]["bufferView"] = view.into();
    let err = gltf::load(&glb(&serde_json::to_vec(&json).unwrap(), &g.bin))
        .expect_err("buffer 1 is read")
        .to_string();
    assert!(err.contains("buffer 1 has no uri"), "{err}");
}

#[test]
fn an_accessor_nothing_reads_may_be_broken() {
    // An unknown type, as in a file the validator calls valid because nothing uses it.
    let g = base();
    let mut json = g.finish_json(None);
    json["accessors"]
        .as_array_mut()
        .expect("accessors")
        .push(json!({"componentType": FLOAT, "type": "VEC5", "count": 1}));
    let model = load(&glb(&serde_json::to_vec(&json).unwrap(), &g.bin));
    assert_eq!(model.skinned_meshes.len(), 1);
    // Named by the mesh, it refuses the file with its reason.
    let broken = json["accessors"].as_array().unwrap().len() - 1;
    json["meshes"][0]["primitives"][0]["attributes"]["NORMAL"] = broken.into();
    let err = gltf::load(&glb(&serde_json::to_vec(&json).unwrap(), &g.bin))
        .expect_err("the broken accessor is read")
        .to_string();
    assert!(err.contains(&format!("accessors[{broken}].type")), "{err}");
}

/// A 2×1 PNG: a red pixel and a blue one.
fn two_pixel_png() -> Vec<u8> {
    let mut png = Vec::new();
    let image = image::RgbaImage::from_raw(2, 1, vec![255, 0, 0, 255, 0, 0, 255, 255]).unwrap();
    image
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("png");
    png
}

/// The base file with a material of colour `factor` and a texture of `image` (an image
/// object: a uri or a bufferView), read through TEXCOORD_0.
fn textured(factor: [f32; 4], image: impl FnOnce(&mut Gltf) -> Value) -> Gltf {
    let mut g = base();
    let uvs = g.accessor(
        &f32s(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0]),
        FLOAT,
        "VEC2",
        4,
    );
    g.primitive()["attributes"]["TEXCOORD_0"] = uvs.into();
    g.primitive()["material"] = 0.into();
    let image = image(&mut g);
    g.json["images"] = json!([image]);
    g.json["samplers"] = json!([{"magFilter": 9728, "minFilter": 9728, "wrapS": 33071}]);
    g.json["textures"] = json!([{"source": 0, "sampler": 0}]);
    g.json["materials"] = json!([{
        "name": "paint",
        "pbrMetallicRoughness": {"baseColorFactor": factor, "baseColorTexture": {"index": 0}}
    }]);
    g
}

#[test]
fn a_material_gives_its_colour_texture_and_coordinates() {
    let png = two_pixel_png();
    let in_bin = |g: &mut Gltf| {
        let bytes = two_pixel_png();
        while !g.bin.len().is_multiple_of(4) {
            g.bin.push(0);
        }
        let views = g.json["bufferViews"].as_array_mut().expect("views");
        views.push(json!({"buffer": 0, "byteOffset": g.bin.len(), "byteLength": bytes.len()}));
        g.bin.extend_from_slice(&bytes);
        json!({"bufferView": views.len() - 1, "mimeType": "image/png"})
    };
    let g = textured([0.5, 1.0, 1.0, 1.0], in_bin);
    for bytes in [g.glb(), g.gltf()] {
        let model = load(&bytes);
        assert!(model.warnings.is_empty(), "{:?}", model.warnings);
        let material = &model.materials[0];
        assert_eq!(material.name.as_deref(), Some("paint"));
        assert_eq!(material.base_color, [0.5, 1.0, 1.0, 1.0]);
        let texture = material.texture.expect("a texture");
        assert_eq!((texture.image, texture.uv_set), (0, 0));
        assert_eq!(
            [texture.sampler.mag_filter, texture.sampler.min_filter],
            [9728, 9728]
        );
        assert_eq!(
            [texture.sampler.wrap_s, texture.sampler.wrap_t],
            [33071, 10497]
        );
        assert_eq!(model.images[0].bytes.as_deref(), Ok(&png[..]));
        assert_eq!(model.images[0].mime.as_deref(), Some("image/png"));
        let part = &model.skinned_meshes[0].part;
        assert_eq!(part.material, Some(0));
        assert_eq!(part.uvs, [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]);
    }
    // Beside a .gltf, as exporters write it: the image is asked for by its decoded name.
    let g = textured([1.0; 4], |_| json!({"uri": "the%20skin.png"}));
    let text = serde_json::to_vec(&g.finish_json(Some("quad.bin".into()))).unwrap();
    let beside = |name: &str, _at_most: usize| match name {
        "quad.bin" => Ok(g.bin.clone()),
        "the skin.png" => Ok(png.clone()),
        _ => Err("no such file".to_owned()),
    };
    let model = gltf::load_with(&text, &beside).expect("loads with its .bin and image");
    assert_eq!(model.images[0].bytes.as_deref(), Ok(&png[..]));
    // An image file larger than an image may be: the model loads, the image says why,
    // and no more than one byte past the budget was asked for.
    let huge = |name: &str, at_most: usize| match name {
        "quad.bin" => Ok(g.bin.clone()),
        _ => {
            assert_eq!(at_most, gltf::MAX_IMAGE_BYTES + 1);
            Ok(vec![0; at_most])
        }
    };
    let model = gltf::load_with(&text, &huge).expect("an image too large is a note");
    let why = model.images[0].bytes.as_ref().expect_err("refused");
    assert!(why.contains("larger than 64 MiB"), "{why}");
}

#[test]
fn a_broken_material_or_missing_image_is_a_note_not_a_refusal() {
    // The image file is missing: the model loads, and the image says why.
    let g = textured([1.0; 4], |_| json!({"uri": "gone.png"}));
    let model = load(&g.glb());
    let why = model.images[0].bytes.as_ref().expect_err("missing");
    assert!(why.contains("'gone.png'"), "{why}");
    // A colour past 1, a texture index past the end, coordinates missing: each is a
    // warning naming the place, and the mesh is drawn without it.
    type Breaks = fn(&mut Gltf);
    let cases: [(&str, Breaks); 3] = [
        ("baseColorFactor", |g| {
            g.json["materials"][0]["pbrMetallicRoughness"]["baseColorFactor"] =
                json!([2.0, 0.0, 0.0, 1.0]);
        }),
        ("index out of bounds", |g| {
            g.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"] = 7.into();
        }),
        ("TEXCOORD_0, which it does not have", |g| {
            let attributes = g.primitive()["attributes"].as_object_mut().unwrap();
            attributes.remove("TEXCOORD_0");
        }),
    ];
    for (said, break_it) in cases {
        let mut g = textured([1.0; 4], |_| json!({"uri": "gone.png"}));
        break_it(&mut g);
        let model = load(&g.glb());
        assert_eq!(model.skinned_meshes.len(), 1, "{said}");
        assert!(
            model.warnings.iter().any(|w| w.contains(said)),
            "{said}: {:?}",
            model.warnings
        );
        assert!(model.skinned_meshes[0].part.uvs.is_empty(), "{said}");
    }
}

#[test]
fn a_mesh_without_normals_gets_them_from_its_triangles() {
    let mut g = base();
    let attributes = g.primitive()["attributes"].as_object_mut().unwrap();
    attributes.remove("NORMAL");
    let model = load(&g.glb());
    // The quad lies in z = 0, wound counter-clockwise seen from +z.
    assert_eq!(
        model.skinned_meshes[0].part.vertices.normals,
        vec![Vec3::Z; 4]
    );
    assert!(
        model.notes.iter().any(|n| n.contains("no normals")),
        "{:?}",
        model.notes
    );
}

#[test]
fn the_fox_is_textured_and_animated() {
    let model = load(bundled("fox"));
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    let names: Vec<&str> = model.clips.iter().map(|c| c.name()).collect();
    assert_eq!(names, ["Survey", "Walk", "Run"]);
    assert_eq!(model.skins[0].joints.len(), 24);
    let part = &model.skinned_meshes[0].part;
    assert_eq!(part.vertices.positions.len(), 1728);
    assert_eq!(part.uvs.len(), 1728);
    assert_eq!(part.vertices.normals.len(), 1728);
    let texture = model.materials[part.material.expect("a material")]
        .texture
        .expect("a texture");
    let png = model.images[texture.image].bytes.as_ref().expect("bytes");
    assert!(png.starts_with(b"\x89PNG"));
}

#[test]
fn a_name_of_a_megabyte_is_cut_to_two_hundred_characters() {
    let mut g = base();
    g.json["nodes"][2]["name"] = "é".repeat(1 << 20).into();
    g.json["animations"][0]["name"] = "w".repeat(1 << 20).into();
    let model = load(&g.gltf());
    let longest = |names: Vec<&str>| names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let joints = longest(model.joints.iter().map(|j| j.name.as_str()).collect());
    let clips = longest(model.clips.iter().map(|c| c.name()).collect());
    assert_eq!(
        joints,
        gltf::MAX_NAME_CHARS + 1,
        "200 characters and the mark"
    );
    assert_eq!(clips, gltf::MAX_NAME_CHARS + 1);
    let cut = "é".repeat(gltf::MAX_NAME_CHARS) + "…";
    assert!(
        model.joint_named(&cut).is_some(),
        "the cut name names the joint"
    );
}

/// `model` with each image's `mimeType` left out: a GLB must say it, a `.gltf` whose
/// image is a file beside it need not, and nothing else tells the two apart.
pub(super) fn without_mime(mut model: Model) -> Model {
    for image in &mut model.images {
        image.mime = None;
    }
    model
}

#[test]
fn every_model_written_as_one_glb_loads_back_the_same() {
    let nothing: &gltf::Beside = &|_, _| Err("nothing is beside it".to_owned());
    let files = [
        ("SimpleSkin.gltf", bundled("simple_skin").to_vec()),
        ("RobotExpressive.glb", bundled("robot").to_vec()),
        ("Fox.glb", bundled("fox").to_vec()),
        ("base.glb", base().glb()),
        ("base.gltf", base().gltf()),
    ];
    for (name, file) in &files {
        let read = gltf::load(file).unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = gltf::to_glb(file, nothing).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(written.starts_with(b"glTF"), "{name}");
        let again = gltf::load(&written).unwrap_or_else(|e| panic!("{name} written: {e}"));
        assert_eq!(without_mime(again), without_mime(read), "{name}");
        // Written again, a written file comes out byte for byte the same.
        let twice = gltf::to_glb(&written, nothing).expect("written again");
        assert_eq!(twice, written, "{name}");
    }
}

#[test]
fn a_gltf_beside_its_bin_and_image_is_written_as_one_glb_that_needs_nothing_beside_it() {
    let mut g = base();
    let png = [b"\x89PNG\r\n\x1a\n".as_slice(), &[7; 29]].concat();
    g.json["images"] = json!([{"uri": "skin%20map.png", "name": "skin"}]);
    g.json["extras"] = json!({"kept": [1, "two", {"three": null}]});
    g.json["nodes"][2]["extras"] = json!({"note": "a joint's own"});
    let file = serde_json::to_vec(&g.finish_json(Some("quad.bin".to_owned()))).expect("json");
    let bin = g.bin.clone();
    let beside = move |name: &str, _: usize| match name {
        "quad.bin" => Ok(bin.clone()),
        "skin map.png" => Ok(png.clone()),
        _ => Err(format!("no file {name}")),
    };
    let read = gltf::load_with(&file, &beside).expect("the .gltf opens from its folder");
    let written = gltf::to_glb(&file, &beside).expect("written");
    let again = gltf::load(&written).expect("the GLB opens alone");
    assert_eq!(without_mime(again.clone()), without_mime(read));
    assert_eq!(again.images[0].mime.as_deref(), Some("image/png"));
    // The JSON keeps what the loader does not read, and names no file.
    let (json, _) = glb_chunks(&written);
    let json: Value = serde_json::from_slice(json).expect("the JSON chunk is JSON");
    assert_eq!(json["extras"], g.json["extras"]);
    assert_eq!(json["nodes"][2]["extras"]["note"], "a joint's own");
    assert_eq!(json["buffers"].as_array().map(Vec::len), Some(1));
    assert!(!String::from_utf8_lossy(&written).contains("\"uri\""));
    // Two buffers gathered into one: the second's views move past the first.
    let mut two = g.finish_json(Some("quad.bin".to_owned()));
    two["buffers"] = json!([{"uri": "pad.bin", "byteLength": 3}, two["buffers"][0].clone()]);
    for view in two["bufferViews"].as_array_mut().expect("views") {
        view["buffer"] = 1.into();
    }
    let two = serde_json::to_vec(&two).expect("json");
    let beside_two = |name: &str, at_most: usize| match name {
        "pad.bin" => Ok(vec![9; 3]),
        _ => beside(name, at_most),
    };
    let read = gltf::load_with(&two, &beside_two).expect("two buffers open");
    let again = gltf::load(&gltf::to_glb(&two, &beside_two).expect("written")).expect("opens");
    assert_eq!(without_mime(again), without_mime(read));
    // A buffer that cannot be read is named, and nothing is written.
    let missing = |_: &str, _: usize| Err("not there".to_owned());
    let err = gltf::to_glb(&file, &missing).expect_err("no .bin");
    assert!(err.to_string().contains("quad.bin"), "{err}");
}
