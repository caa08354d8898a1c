//! The node tree as a skeleton: every node becomes a joint, ordered parents-first, with
//! its rest transform as translation, rotation and scale.

use super::document::{Document, Node, NodeTransform};
use super::{Joint, ModelError, quoted};
use glam::{Mat4, Quat, Vec3};
use skin::Skeleton;
use skin::clip::Transform;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The skeleton built from the nodes, and the maps between node and joint indices.
pub(super) struct Hierarchy {
    pub joints: Vec<Joint>,
    pub skeleton: Skeleton,
    pub rest: Vec<Transform>,
    /// `joint_of_node[node]` is that node's joint index.
    pub joint_of_node: Vec<usize>,
    /// How messages name each node: "node 3 'Hips'" or "node 3".
    labels: Vec<String>,
}

impl Hierarchy {
    /// "node 3 'Hips'" or "node 3": how messages name a node.
    pub fn node_label(&self, node: usize) -> String {
        self.labels
            .get(node)
            .cloned()
            .unwrap_or_else(|| format!("node {node}"))
    }

    /// The rest world matrix of every joint.
    pub fn rest_world(&self) -> Vec<Mat4> {
        let local: Vec<Mat4> = self.rest.iter().map(Transform::to_mat4).collect();
        self.skeleton.world_from_joint(&local)
    }
}

/// Orders the nodes parents-first and reads their rest transforms.
pub(super) fn hierarchy(
    document: &Document,
    warnings: &mut Vec<String>,
) -> Result<Hierarchy, ModelError> {
    let count = document.nodes.len();
    let mut parent: Vec<Option<usize>> = vec![None; count];
    for node in &document.nodes {
        for &c in &node.children {
            if c == node.index {
                return Err(ModelError::new(format!(
                    "node {c} lists itself as its own child"
                )));
            }
            if let Some(first) = parent[c] {
                return Err(ModelError::new(format!(
                    "node {c} is a child of both node {first} and node {}; a node can have \
                     only one parent",
                    node.index
                )));
            }
            parent[c] = Some(node.index);
        }
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (child, p) in parent.iter().enumerate() {
        if let Some(p) = p {
            children[*p].push(child);
        }
    }
    // Always take the smallest ready node: a file already parents-first keeps its
    // numbering, so joint j is node j.
    let mut ready: BinaryHeap<Reverse<usize>> = (0..count)
        .filter(|&n| parent[n].is_none())
        .map(Reverse)
        .collect();
    let mut order = Vec::with_capacity(count);
    while let Some(Reverse(node)) = ready.pop() {
        order.push(node);
        ready.extend(children[node].iter().map(|&c| Reverse(c)));
    }
    if order.len() < count {
        let mut placed = vec![false; count];
        for &n in &order {
            placed[n] = true;
        }
        let stuck: Vec<String> = (0..count)
            .filter(|&n| !placed[n])
            .take(8)
            .map(|n| n.to_string())
            .collect();
        return Err(ModelError::new(format!(
            "the nodes' children form a cycle: nodes {} are their own ancestors",
            stuck.join(", ")
        )));
    }
    let mut joint_of_node = vec![0; count];
    for (joint, &node) in order.iter().enumerate() {
        joint_of_node[node] = joint;
    }
    let parents = order
        .iter()
        .map(|&node| parent[node].map(|p| joint_of_node[p]))
        .collect();
    let skeleton = Skeleton::new(parents).map_err(|e| ModelError::new(e.to_string()))?;
    let nodes = &document.nodes;
    let mut joints = Vec::with_capacity(count);
    let mut rest = Vec::with_capacity(count);
    let labels: Vec<String> = nodes
        .iter()
        .map(
            |node| match node.name.as_deref().filter(|s| !s.is_empty()) {
                Some(name) => format!("node {} {}", node.index, quoted(name)),
                None => format!("node {}", node.index),
            },
        )
        .collect();
    for &n in &order {
        let node = &nodes[n];
        joints.push(Joint {
            name: node
                .name
                .as_deref()
                .filter(|s| !s.is_empty())
                .map_or_else(|| format!("node {n}"), str::to_owned),
            node: n,
            camera_or_light: node.camera_or_light,
        });
        rest.push(rest_transform(node, &labels[n], warnings)?);
    }
    Ok(Hierarchy {
        joints,
        skeleton,
        rest,
        joint_of_node,
        labels,
    })
}

fn rest_transform(
    node: &Node,
    label: &str,
    warnings: &mut Vec<String>,
) -> Result<Transform, ModelError> {
    let not_finite = || {
        ModelError::new(format!(
            "{label}: its transform holds a number that is not finite"
        ))
    };
    match node.transform {
        NodeTransform::Decomposed {
            translation,
            rotation,
            scale,
        } => {
            let t = Transform {
                translation: Vec3::from(translation),
                rotation: Quat::from_array(rotation),
                scale: Vec3::from(scale),
            };
            if !t.is_finite() {
                return Err(not_finite());
            }
            let length = t.rotation.length();
            if length < 1e-6 {
                warnings.push(format!(
                    "{label}: its rotation is the zero quaternion, which is no rotation; the \
                     identity is used"
                ));
                return Ok(Transform {
                    rotation: Quat::IDENTITY,
                    ..t
                });
            }
            Ok(Transform {
                rotation: t.rotation / length,
                ..t
            })
        }
        NodeTransform::Matrix(matrix) => {
            let m = Mat4::from_cols_array(&matrix);
            if !m.is_finite() {
                return Err(not_finite());
            }
            let (scale, rotation, translation) = m.to_scale_rotation_translation();
            let t = Transform {
                translation,
                rotation,
                scale,
            };
            if !t.is_finite() || scale.x * scale.y * scale.z == 0.0 {
                return Err(ModelError::new(format!(
                    "{label}: its matrix is singular, so it has no rotation to animate"
                )));
            }
            let size = m.to_cols_array().iter().fold(1.0f32, |a, v| a.max(v.abs()));
            if !t.to_mat4().abs_diff_eq(m, 1e-4 * size) {
                warnings.push(format!(
                    "{label}: its matrix shears, which translation, rotation and scale cannot \
                     hold; the nearest of those is used"
                ));
            }
            Ok(t)
        }
    }
}
