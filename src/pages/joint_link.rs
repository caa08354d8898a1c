//! Link values that list joints of the humanoid rig, shared by the pages that pose it:
//! `rot=upper_arm.L:0,0,1.2;forearm.L:0.3,0,0` — a joint name, three numbers, entries
//! joined by `;`, each joint at most once, only the joints that differ from a base pose.

use crate::link::{Link, LinkError, numbers, parse_number};
use crate::skin::Trs;
use crate::skin::humanoid::{JOINT_COUNT, JOINTS, joint_index};
use glam::Vec3;

const FORM: &str = "entries like `forearm.L:0,0,1.2` joined by `;`";

/// Every joint name, for messages.
pub fn joint_names() -> String {
    JOINTS.iter().map(|j| j.name).collect::<Vec<_>>().join(", ")
}

/// The entries where `pose` differs from `base` in the part `field` picks; `None` when
/// no joint differs.
pub fn write(pose: &[Trs], base: &[Trs], field: impl Fn(&Trs) -> Vec3) -> Option<String> {
    let entries: Vec<String> = pose
        .iter()
        .zip(base)
        .zip(JOINTS.iter())
        .filter(|((p, b), _)| field(p) != field(b))
        .map(|((p, _), def)| format!("{}:{}", def.name, numbers(&field(p).to_array())))
        .collect();
    (!entries.is_empty()).then(|| entries.join(";"))
}

/// Reads the list under `key` (empty when absent). Checks joint names, three finite
/// numbers each, no joint twice, and whatever `check` refuses (it returns the reason).
pub fn read(
    link: &Link,
    key: &str,
    check: impl Fn(Vec3) -> Option<String>,
) -> Result<Vec<(usize, Vec3)>, LinkError> {
    let Some(value) = link.get(key) else {
        return Ok(Vec::new());
    };
    let bad = |why: String| link.bad(key, format!("{FORM}; {why}"));
    let mut seen = [false; JOINT_COUNT];
    let mut out = Vec::new();
    for entry in value.split(';') {
        let Some((name, text)) = entry.split_once(':') else {
            return Err(link.bad(key, FORM));
        };
        let joint = joint_index(name).ok_or_else(|| {
            bad(format!(
                "`{name}` is not a joint. The joints are: {}",
                joint_names()
            ))
        })?;
        if std::mem::replace(&mut seen[joint], true) {
            return Err(bad(format!("`{name}` is given twice")));
        }
        let parsed: Option<Vec<f32>> = text.split(',').map(parse_number).collect();
        let Some(&[x, y, z]) = parsed.as_deref() else {
            return Err(bad(format!("`{name}` needs three finite numbers")));
        };
        let v = Vec3::new(x, y, z);
        if let Some(problem) = check(v) {
            return Err(bad(format!("for `{name}`, {problem}")));
        }
        out.push((joint, v));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_only_changed_joints_and_reads_them_back() {
        let base = vec![Trs::default(); JOINT_COUNT];
        let mut pose = base.clone();
        pose[7].rotation = Vec3::new(0.3, 0.0, -1.5);
        let text = write(&pose, &base, |t| t.rotation).unwrap();
        assert_eq!(text, "forearm.L:0.3,0,-1.5");
        assert_eq!(write(&base, &base, |t| t.rotation), None);
        let link = Link::parse(&format!("p?rot={text}")).unwrap();
        assert_eq!(
            read(&link, "rot", |_| None).unwrap(),
            vec![(7, pose[7].rotation)]
        );
    }

    #[test]
    fn bad_lists_say_what_is_wrong() {
        let err = |value: &str| {
            let link = Link::parse(&format!("p?rot={value}")).unwrap();
            read(&link, "rot", |v| {
                (v.x > 5.0).then(|| "x is too big".to_owned())
            })
            .unwrap_err()
            .to_string()
        };
        assert!(err("elbow:0,0,1").contains("The joints are: hips"));
        assert!(err("head:0,0,1;head:1,0,0").contains("given twice"));
        assert!(err("head:0,nan,1").contains("three finite numbers"));
        assert!(err("head:0,1").contains("three finite numbers"));
        assert!(err("head").contains("joined by"));
        assert!(err("head:9,0,0").contains("x is too big"));
    }
}
