//! The uniforms a shader file declares and what each costs in vectors: how the gpu page
//! counts the joints that fit the uniform budget of the real shaders.

/// One `uniform` declared in a shader's source, and the vectors (vec4 slots) it takes.
#[derive(Clone, Debug, PartialEq)]
pub struct UniformCost {
    /// The uniform's name.
    pub name: String,
    /// Its type, as written.
    pub ty: String,
    /// Array length, with `MAX_JOINTS` replaced by the value given.
    pub count: usize,
    /// Vectors it takes: a mat4 takes 4, a vec2, float or bool one (drivers round each
    /// up to a whole vec4, as the GLSL ES packing rules allow).
    pub vectors: usize,
}

/// The uniforms a shader file declares, in order, with their cost in vectors.
/// Samplers cost none here: they take a texture unit, not uniform vectors.
pub fn uniform_costs(source: &str, max_joints: usize) -> Vec<UniformCost> {
    let mut out = Vec::new();
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or("").trim();
        let Some(rest) = code.strip_prefix("uniform ") else {
            continue;
        };
        let words: Vec<&str> = rest.trim_end_matches(';').split_whitespace().collect();
        // An optional precision word comes before the type.
        let words = match words.first() {
            Some(&("highp" | "mediump" | "lowp")) => &words[1..],
            _ => &words[..],
        };
        let (Some(ty), Some(name)) = (words.first(), words.get(1)) else {
            continue;
        };
        let (name, count) = match name.split_once('[') {
            Some((name, len)) => {
                let len = len.trim_end_matches(']');
                let count = if len == "MAX_JOINTS" {
                    max_joints
                } else {
                    len.parse().unwrap_or(1)
                };
                (name, count)
            }
            None => (*name, 1),
        };
        let per = match *ty {
            "mat4" => 4,
            "mat3" => 3,
            "mat2" => 2,
            t if t.starts_with("sampler") => 0,
            _ => 1,
        };
        out.push(UniformCost {
            name: name.to_owned(),
            ty: (*ty).to_owned(),
            count,
            vectors: per * count,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shaders;

    #[test]
    fn uniform_costs_read_the_real_shaders() {
        let costs = uniform_costs(shaders::BLEND_LBS.text, 60);
        assert_eq!(costs.len(), 1);
        assert_eq!(
            (costs[0].name.as_str(), costs[0].vectors),
            ("u_palette", 240)
        );
        let costs = uniform_costs(shaders::BLEND_TEXTURE.text, 60);
        assert_eq!(costs[0].name, "u_bone_texture");
        assert_eq!(costs[0].vectors, 0);
        let main = uniform_costs(shaders::SKIN_VERT.text, 60);
        let names: Vec<&str> = main.iter().map(|c| c.name.as_str()).collect();
        assert!(
            names.starts_with(&["u_clip_from_world", "u_clip_offset"]),
            "{names:?}"
        );
        assert_eq!(main[0].vectors, 4);
        assert_eq!(main[1].vectors, 1);
    }
}
