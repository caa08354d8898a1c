//! A joint hierarchy and the walk that turns local transforms into world transforms.

use glam::Mat4;
use std::fmt;

/// Why a list of parents does not describe a skeleton.
#[derive(Clone, Debug, PartialEq)]
pub enum SkeletonError {
    /// Joint `joint` names a parent that is not an earlier joint.
    ParentNotBefore {
        /// The joint whose parent is wrong.
        joint: usize,
        /// The parent it names.
        parent: usize,
    },
}

impl fmt::Display for SkeletonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ParentNotBefore { joint, parent } => write!(
                f,
                "joint {joint} has parent {parent}, but a parent must come before its children"
            ),
        }
    }
}

impl std::error::Error for SkeletonError {}

/// A tree of joints stored parents-first.
///
/// Contract: `parents[j]` is `None` for a root, or `Some(p)` with `p < j`. This order
/// lets one forward pass compute every world transform.
#[derive(Clone, Debug, PartialEq)]
pub struct Skeleton {
    parents: Vec<Option<usize>>,
}

impl Skeleton {
    /// Checks the parents-first contract.
    ///
    /// ```
    /// use skinlab_skin::Skeleton;
    ///
    /// // A hip with two legs of two joints each.
    /// let legs = Skeleton::new(vec![None, Some(0), Some(1), Some(0), Some(3)])?;
    /// assert_eq!(legs.path_from_root(4), [0, 3, 4]);
    /// // A parent must come before its child.
    /// assert!(Skeleton::new(vec![Some(1), None]).is_err());
    /// # Ok::<(), skinlab_skin::skeleton::SkeletonError>(())
    /// ```
    pub fn new(parents: Vec<Option<usize>>) -> Result<Self, SkeletonError> {
        for (joint, parent) in parents.iter().enumerate() {
            if let Some(parent) = *parent
                && parent >= joint
            {
                return Err(SkeletonError::ParentNotBefore { joint, parent });
            }
        }
        Ok(Self { parents })
    }

    /// A chain where joint `j` is the child of joint `j - 1`.
    pub fn chain(joint_count: usize) -> Self {
        Self {
            parents: (0..joint_count).map(|j| j.checked_sub(1)).collect(),
        }
    }

    /// Number of joints.
    pub fn len(&self) -> usize {
        self.parents.len()
    }

    /// True when there are no joints.
    pub fn is_empty(&self) -> bool {
        self.parents.is_empty()
    }

    /// The parent of `joint`, `None` for a root.
    pub fn parent(&self, joint: usize) -> Option<usize> {
        self.parents.get(joint).copied().flatten()
    }

    /// The joints from the root down to `joint`, inclusive.
    pub fn path_from_root(&self, joint: usize) -> Vec<usize> {
        let mut path = vec![joint];
        while let Some(parent) = self.parent(*path.last().unwrap_or(&joint)) {
            path.push(parent);
        }
        path.reverse();
        path
    }

    // ANCHOR: world_from_joint
    /// `world_from_joint[j] = world_from_joint[parent(j)] * parent_from_joint[j]`.
    ///
    /// Panics if `parent_from_joint` does not hold one matrix per joint: that is a
    /// programming error, never user input.
    pub fn world_from_joint(&self, parent_from_joint: &[Mat4]) -> Vec<Mat4> {
        assert_eq!(
            parent_from_joint.len(),
            self.len(),
            "one local transform per joint"
        );
        let mut world: Vec<Mat4> = Vec::with_capacity(self.len());
        for (joint, local) in parent_from_joint.iter().enumerate() {
            let world_from_parent = match self.parents[joint] {
                Some(parent) => world[parent],
                None => Mat4::IDENTITY,
            };
            world.push(world_from_parent * *local);
        }
        world
    }
    // ANCHOR_END: world_from_joint
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn parents_must_come_first() {
        assert!(Skeleton::new(vec![None, Some(0), Some(1)]).is_ok());
        assert_eq!(
            Skeleton::new(vec![None, Some(2), Some(0)]),
            Err(SkeletonError::ParentNotBefore {
                joint: 1,
                parent: 2
            })
        );
        assert!(Skeleton::new(vec![Some(0)]).is_err());
    }

    #[test]
    fn chain_composes_parent_first() {
        let skeleton = Skeleton::chain(3);
        let step = Mat4::from_translation(Vec3::X * 4.0) * Mat4::from_rotation_z(0.3);
        let world = skeleton.world_from_joint(&[Mat4::from_rotation_z(0.3), step, step]);
        let tip = world[2].transform_point3(Vec3::ZERO);
        let expected = Mat4::from_rotation_z(0.3) * step * step;
        assert!(tip.abs_diff_eq(expected.transform_point3(Vec3::ZERO), 1e-5));
        assert_eq!(skeleton.path_from_root(2), vec![0, 1, 2]);
    }
}
