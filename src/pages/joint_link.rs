//! Link values that list joints of the humanoid rig, shared by the pages that pose it:
//! `rot=upper_arm.L:0,0,1.2;forearm.L:0.3,0,0` — a joint name, three numbers, entries
//! joined by `;`, each joint at most once, only the joints that differ from a base pose.
//! A page declares such a key as an `Access::Text` whose set and get call [`read`] and
//! [`write`].

use crate::link::{numbers, parse_number};
use glam::Vec3;
use rigs::humanoid::{JOINT_COUNT, JOINTS, joint_index};
use skin::explain::trs::Trs;

/// The grammar of a joint list, as messages and docs/links.md say it.
pub const FORM: &str = "entries like `forearm.L:0,0,1.2` joined by `;`";

/// Every joint name, in rig order: the choices of a `joint=` key.
pub const JOINT_NAMES: [&str; JOINT_COUNT] = {
    let mut names = [""; JOINT_COUNT];
    let mut i = 0;
    while i < JOINT_COUNT {
        names[i] = JOINTS[i].name;
        i += 1;
    }
    names
};

/// Every joint name, for messages.
pub fn joint_names() -> String {
    JOINT_NAMES.join(", ")
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

/// Reads a joint list into (joint, value) pairs. Checks joint names, three finite
/// numbers each, no joint twice, and whatever `check` refuses (it returns the reason).
/// An error is the whole expected text: `form` (the key's grammar), then what is wrong.
pub fn read(
    value: &str,
    form: &str,
    check: impl Fn(Vec3) -> Option<String>,
) -> Result<Vec<(usize, Vec3)>, String> {
    let humanoid = |name: &str| {
        joint_index(name)
            .ok_or_else(|| format!("`{name}` is not a joint. The joints are: {}", joint_names()))
    };
    let entries = read_list(value, form, 3, humanoid, |n| check(Vec3::from_slice(n)))?;
    Ok(entries
        .into_iter()
        .map(|(joint, n)| (joint, Vec3::from_slice(&n)))
        .collect())
}

/// Reads `name:n,n,…` entries joined by `;` for any rig: `find` turns a name into a
/// joint (or says why not, naming the valid ones), each entry has exactly `count`
/// finite numbers, no joint comes twice, and `check` may refuse the numbers (it
/// returns the reason). An error is `form` (the key's grammar), then what is wrong.
pub fn read_list(
    value: &str,
    form: &str,
    count: usize,
    find: impl Fn(&str) -> Result<usize, String>,
    check: impl Fn(&[f32]) -> Option<String>,
) -> Result<Vec<(usize, Vec<f32>)>, String> {
    let bad = |why: String| format!("{form}; {why}");
    let mut out: Vec<(usize, Vec<f32>)> = Vec::new();
    for entry in value.split(';') {
        let Some((name, text)) = entry.split_once(':') else {
            return Err(form.to_owned());
        };
        let joint = find(name).map_err(bad)?;
        if out.iter().any(|(j, _)| *j == joint) {
            return Err(bad(format!("`{name}` is given twice")));
        }
        let parsed: Option<Vec<f32>> = text.split(',').map(parse_number).collect();
        let Some(numbers) = parsed.filter(|n| n.len() == count) else {
            let words = if count == 3 {
                "three".to_owned()
            } else {
                count.to_string()
            };
            return Err(bad(format!("`{name}` needs {words} finite numbers")));
        };
        if let Some(problem) = check(&numbers) {
            return Err(bad(format!("for `{name}`, {problem}")));
        }
        out.push((joint, numbers));
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
        assert_eq!(
            read(&text, FORM, |_| None).unwrap(),
            vec![(7, pose[7].rotation)]
        );
    }

    #[test]
    fn bad_lists_say_what_is_wrong() {
        let err = |value: &str| {
            read(value, FORM, |v| {
                (v.x > 5.0).then(|| "x is too big".to_owned())
            })
            .unwrap_err()
        };
        assert!(err("elbow:0,0,1").contains("The joints are: hips"));
        assert!(err("head:0,0,1;head:1,0,0").contains("given twice"));
        assert!(err("head:0,nan,1").contains("three finite numbers"));
        assert!(err("head:0,1").contains("three finite numbers"));
        assert!(err("head").contains("joined by"));
        assert!(err("head:9,0,0").contains("x is too big"));
        assert!(err("head:9,0,0").starts_with(FORM));
    }

    #[test]
    fn joint_names_follow_the_rig() {
        assert_eq!(JOINT_NAMES.len(), JOINTS.len());
        for (name, joint) in JOINT_NAMES.iter().zip(JOINTS.iter()) {
            assert_eq!(*name, joint.name);
        }
    }
}
