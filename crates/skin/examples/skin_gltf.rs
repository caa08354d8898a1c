//! Skins every skinned mesh of a glTF file on the CPU, headless, and checks the fast job
//! against the readable reference.
//!
//! ```text
//! cargo run --release -p skinlab-skin --example skin_gltf -- [FILE.glb] [CLIP] [SECONDS]
//! ```
//!
//! With no file it takes the fox in `assets/models`; with no clip, the file's first
//! (or the rest pose when it has none); with no time, half the clip. It prints each
//! mesh's size before and after, how long the job took, and how far the job's
//! positions lie from the reference's. It exits with status 1 when they lie further
//! apart than a thousandth of the mesh's size, and 2 when the file cannot be read.

use glam::Vec3;
use skinlab_skin::job::{JointWeights, SkinningJob, Stream};
use skinlab_skin::lbs;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/models/Fox.glb").to_owned()
    });
    // Messages name the file, not the folder it is in.
    let file = std::path::Path::new(&path)
        .file_name()
        .map_or(path.clone(), |name| name.to_string_lossy().into_owned());
    let clip_name = args.next();
    let seconds: Option<f32> = args.next().and_then(|s| s.parse().ok());

    let model = match std::fs::read(&path)
        .map_err(|e| e.to_string())
        .and_then(|bytes| skinlab_gltf::load(&bytes).map_err(|e| e.to_string()))
    {
        Ok(model) => model,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(2);
        }
    };
    let clip = match &clip_name {
        Some(name) => match model.clip(name) {
            Some(clip) => Some(clip),
            None => {
                let names: Vec<&str> = model.clips.iter().map(|c| c.name()).collect();
                eprintln!(
                    "{file}: no clip named {name:?} (it has: {})",
                    names.join(", ")
                );
                return ExitCode::from(2);
            }
        },
        None => model.clips.first(),
    };
    let pose = match clip {
        Some(clip) => {
            let t = seconds.unwrap_or(clip.duration() / 2.0);
            println!("{file}: clip {:?} at {t} s", clip.name());
            model.sample(clip, t)
        }
        None => {
            println!("{file}: no clips, the rest pose");
            model.rest_pose.clone()
        }
    };
    let world_from_joint = model.world_from_joint(&pose);

    let mut worst = ExitCode::SUCCESS;
    for mesh in &model.skinned_meshes {
        let vertices = &mesh.part.vertices;
        let palette = model.palette(mesh.skin, &world_from_joint);
        // What never changes is prepared once: the weights, checked, and the outputs.
        let weights = match JointWeights::from_influences(&vertices.influences) {
            Ok(weights) => weights,
            Err(e) => {
                eprintln!("{}: {e}", mesh.part.name);
                return ExitCode::from(2);
            }
        };
        let mut positions = vec![Vec3::ZERO; vertices.positions.len()];
        let started = Instant::now();
        let ran = SkinningJob {
            palette: &palette,
            influences: &weights,
            positions: Stream::new(&vertices.positions, &mut positions),
            normals: None,
            tangents: None,
        }
        .run_threaded(0);
        let took = started.elapsed();
        if let Err(e) = ran {
            eprintln!("{}: {e}", mesh.part.name);
            return ExitCode::from(2);
        }

        let reference = lbs::skin_vertices(&palette, vertices);
        let apart = positions
            .iter()
            .zip(&reference)
            .map(|(job, r)| job.distance(r.position))
            .fold(0.0f32, f32::max);
        let size = extent(&vertices.positions).max(f32::MIN_POSITIVE);
        println!(
            "{}: {} vertices, {} joints; {:.3} -> {:.3} across; job {:.3} ms; \
             largest distance from the reference {apart:.2e} ({:.1e} of the size)",
            mesh.part.name,
            positions.len(),
            palette.len(),
            size,
            extent(&positions),
            took.as_secs_f64() * 1e3,
            apart / size,
        );
        // A NaN distance fails too.
        let agree = apart <= size * 1e-3;
        if !agree {
            eprintln!("{}: the job and the reference disagree", mesh.part.name);
            worst = ExitCode::FAILURE;
        }
    }
    if model.skinned_meshes.is_empty() {
        println!("{file}: no skinned meshes");
    }
    worst
}

/// The diagonal of the points' bounding box.
fn extent(points: &[Vec3]) -> f32 {
    let (lo, hi) = points
        .iter()
        .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(*p), hi.max(*p))
        });
    if points.is_empty() {
        0.0
    } else {
        lo.distance(hi)
    }
}
