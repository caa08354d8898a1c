//! The model's base colour textures, decoded for drawing: on the desktop by the
//! `image` crate (PNG and JPEG), in the browser by the browser itself, which the page
//! waits for without stopping. One entry per material; a texture that cannot be
//! decoded is a note on the page, and its mesh is drawn in its material's colour.

use gltf::{Material, Model};
use scene::Texture;
use std::sync::{Arc, Mutex};

/// The largest side of an image decoded (the most any GPU the app runs on holds).
pub const MAX_SIDE: u32 = 8192;

/// The most bytes of decoded pixels for one model, all its images together: 256 MiB.
pub const MAX_PIXEL_BYTES: u64 = 256 << 20;

/// What became of one material's texture.
#[derive(Clone, Debug)]
pub enum Decoded {
    /// No texture.
    None,
    /// Being decoded (in the browser, which takes a frame or more).
    Pending,
    /// Ready to draw.
    Ready(Arc<Texture>),
    /// Why it could not be decoded.
    Failed(String),
}

/// Each material's texture, filled as decoding finishes.
pub type Slots = Arc<Mutex<Vec<Decoded>>>;

/// The textures of `model`'s materials: decoded here on the desktop, handed to the
/// browser to decode in the web app (the slots fill as it finishes).
pub fn decode(model: &Model) -> Slots {
    let slots: Slots = Arc::new(Mutex::new(vec![Decoded::None; model.materials.len()]));
    let mut budget = MAX_PIXEL_BYTES;
    for (m, material) in model.materials.iter().enumerate() {
        let Some((bytes, texture)) = encoded(model, material) else {
            continue;
        };
        let name = model
            .images
            .get(texture.image)
            .map_or("", |i| i.name.as_str());
        let bytes = match bytes {
            Ok(bytes) => bytes,
            Err(why) => {
                set(&slots, m, Decoded::Failed(format!("`{name}`: {why}")));
                continue;
            }
        };
        let filters = [texture.sampler.mag_filter, texture.sampler.min_filter];
        let wraps = [texture.sampler.wrap_s, texture.sampler.wrap_t];
        set(&slots, m, Decoded::Pending);
        let finish = {
            let (slots, name) = (slots.clone(), name.to_owned());
            move |pixels: Result<([u32; 2], Vec<u8>), String>| {
                let decoded = match pixels {
                    Ok((size, rgba)) => Texture::new(size, rgba, filters, wraps).map_or_else(
                        || Decoded::Failed(format!("`{name}` is empty")),
                        Decoded::Ready,
                    ),
                    Err(why) => Decoded::Failed(format!("`{name}`: {why}")),
                };
                set(&slots, m, decoded);
            }
        };
        platform::decode(bytes, &mut budget, finish);
    }
    slots
}

/// The encoded bytes of a material's texture and how it is read, if it has one.
fn encoded<'m>(
    model: &'m Model,
    material: &Material,
) -> Option<(Result<&'m [u8], String>, gltf::TextureRef)> {
    let texture = material.texture?;
    let bytes = match model.images.get(texture.image) {
        Some(image) => image.bytes.as_deref().map_err(Clone::clone),
        None => Err("no such image".to_owned()),
    };
    Some((bytes, texture))
}

fn set(slots: &Slots, m: usize, decoded: Decoded) {
    if let Ok(mut slots) = slots.lock()
        && let Some(slot) = slots.get_mut(m)
    {
        *slot = decoded;
    }
}

/// A linear colour (glTF's `baseColorFactor`) in the gamma-encoded values the viewport
/// draws with, as image files store theirs: `c^(1/2.2)`, alpha kept.
pub fn gamma_encoded(linear: [f32; 4]) -> [f32; 4] {
    let [r, g, b, a] = linear;
    let e = |c: f32| c.clamp(0.0, 1.0).powf(1.0 / 2.2);
    [e(r), e(g), e(b), a]
}

#[cfg(not(target_arch = "wasm32"))]
mod platform {
    use super::{MAX_PIXEL_BYTES, MAX_SIDE};

    /// Decodes a PNG or a JPEG here and now, within what is left of `budget`.
    pub fn decode(
        bytes: &[u8],
        budget: &mut u64,
        finish: impl FnOnce(Result<([u32; 2], Vec<u8>), String>) + 'static,
    ) {
        finish(pixels(bytes, budget));
    }

    fn pixels(bytes: &[u8], budget: &mut u64) -> Result<([u32; 2], Vec<u8>), String> {
        use image::ImageDecoder as _;
        let reader = image::ImageReader::new(std::io::Cursor::new(bytes))
            .with_guessed_format()
            .map_err(|e| e.to_string())?;
        if reader.format().is_none() {
            return Err("it is neither a PNG nor a JPEG".to_owned());
        }
        // One decoder: its header is read here, its pixels only once they fit.
        let mut decoder = reader
            .into_decoder()
            .map_err(|e| format!("its header cannot be read: {e}"))?;
        let (w, h) = decoder.dimensions();
        let needed = 4 * u64::from(w) * u64::from(h);
        if w > MAX_SIDE || h > MAX_SIDE {
            return Err(format!(
                "it is {w}×{h} pixels; the page decodes images up to {MAX_SIDE} a side"
            ));
        }
        if needed > *budget {
            return Err(format!(
                "its {w}×{h} pixels take {needed} bytes, past the {MAX_PIXEL_BYTES} the page \
                 decodes for one model"
            ));
        }
        *budget -= needed;
        let mut limits = image::Limits::default();
        limits.max_image_width = Some(MAX_SIDE);
        limits.max_image_height = Some(MAX_SIDE);
        limits.max_alloc = Some(2 * needed + (1 << 20));
        decoder.set_limits(limits).map_err(|e| e.to_string())?;
        let image = image::DynamicImage::from_decoder(decoder).map_err(|e| e.to_string())?;
        Ok(([w, h], image.into_rgba8().into_raw()))
    }
}

#[cfg(target_arch = "wasm32")]
mod platform {
    use super::MAX_SIDE;
    use wasm_bindgen::{JsCast as _, JsValue};

    /// Hands a PNG or a JPEG to the browser's decoder; `finish` runs when it is done.
    /// (The browser holds the pixels until they are read, so only a side is checked.)
    pub fn decode(
        bytes: &[u8],
        _budget: &mut u64,
        finish: impl FnOnce(Result<([u32; 2], Vec<u8>), String>) + 'static,
    ) {
        let array = js_sys::Uint8Array::from(bytes);
        wasm_bindgen_futures::spawn_local(async move {
            let pixels = pixels(array).await.map_err(|e| {
                e.as_string()
                    .or_else(|| {
                        e.dyn_ref::<js_sys::Error>()
                            .map(|e| String::from(e.message()))
                    })
                    .unwrap_or_else(|| "the browser could not decode it".to_owned())
            });
            finish(pixels);
        });
    }

    async fn pixels(array: js_sys::Uint8Array) -> Result<([u32; 2], Vec<u8>), JsValue> {
        let blob = web_sys::Blob::new_with_u8_array_sequence(&js_sys::Array::of1(&array))?;
        let window = web_sys::window().ok_or("no window")?;
        let promise = window.create_image_bitmap_with_blob(&blob)?;
        let bitmap: web_sys::ImageBitmap = wasm_bindgen_futures::JsFuture::from(promise)
            .await?
            .dyn_into()?;
        let (w, h) = (bitmap.width(), bitmap.height());
        if w > MAX_SIDE || h > MAX_SIDE {
            return Err(format!(
                "it is {w}×{h} pixels; the page decodes images up to {MAX_SIDE} a side"
            )
            .into());
        }
        let canvas = web_sys::OffscreenCanvas::new(w, h)?;
        let context: web_sys::OffscreenCanvasRenderingContext2d = canvas
            .get_context("2d")?
            .ok_or("no 2d context")?
            .dyn_into()?;
        context.draw_image_with_image_bitmap(&bitmap, 0.0, 0.0)?;
        let data = context.get_image_data(0.0, 0.0, f64::from(w), f64::from(h))?;
        Ok(([w, h], data.data().0))
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    /// A PNG whose header claims `w × h` pixels, then an empty IDAT chunk: no pixels.
    fn png_header(w: u32, h: u32) -> Vec<u8> {
        fn crc32(bytes: &[u8]) -> u32 {
            let mut crc = !0u32;
            for &b in bytes {
                crc ^= u32::from(b);
                for _ in 0..8 {
                    crc = if crc & 1 == 1 {
                        (crc >> 1) ^ 0xEDB8_8320
                    } else {
                        crc >> 1
                    };
                }
            }
            !crc
        }
        let mut chunk = b"IHDR".to_vec();
        chunk.extend(w.to_be_bytes());
        chunk.extend(h.to_be_bytes());
        chunk.extend([8, 6, 0, 0, 0]);
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        png.extend(13u32.to_be_bytes());
        png.extend(&chunk);
        png.extend(crc32(&chunk).to_be_bytes());
        png.extend(0u32.to_be_bytes());
        png.extend(b"IDAT");
        png.extend(crc32(b"IDAT").to_be_bytes());
        png
    }

    /// A model with one textured material per image.
    fn model_of(images: Vec<Vec<u8>>) -> Model {
        let mut model = (*super::super::data::empty_model()).clone();
        for (i, bytes) in images.into_iter().enumerate() {
            model.images.push(gltf::Image {
                name: format!("image {i}"),
                mime: Some("image/png".to_owned()),
                bytes: Ok(bytes),
            });
            model.materials.push(Material {
                texture: Some(gltf::TextureRef {
                    image: i,
                    sampler: gltf::Sampler::default(),
                    uv_set: 0,
                    transform: glam::Affine2::IDENTITY,
                }),
                ..Material::default()
            });
        }
        model
    }

    fn failures(model: &Model) -> Vec<String> {
        let slots = decode(model);
        let slots = slots.lock().expect("decoded");
        slots
            .iter()
            .map(|d| match d {
                Decoded::Failed(why) => why.clone(),
                other => format!("not a failure: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_header_past_the_largest_side_is_refused_before_decoding() {
        let why = failures(&model_of(vec![png_header(100_000, 4)]));
        assert!(why[0].contains("100000×4 pixels"), "{why:?}");
        assert!(why[0].contains("up to 8192 a side"), "{why:?}");
    }

    #[test]
    fn images_past_the_budget_together_are_refused_one_by_one() {
        // Each fits alone (8192² × 4 bytes is the whole budget); the second does not
        // fit beside the first, which fails on its own for having no pixels.
        let side = png_header(MAX_SIDE, MAX_SIDE);
        let why = failures(&model_of(vec![side.clone(), side]));
        assert!(!why[0].contains("past the"), "{why:?}");
        assert!(why[1].contains("past the 268435456"), "{why:?}");
    }

    #[test]
    fn a_real_png_decodes_to_its_pixels() {
        let mut png = Vec::new();
        image::RgbaImage::from_raw(2, 1, vec![255, 0, 0, 255, 0, 0, 255, 128])
            .expect("pixels")
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .expect("encoded");
        let slots = decode(&model_of(vec![png]));
        let slots = slots.lock().expect("decoded");
        let Decoded::Ready(texture) = &slots[0] else {
            panic!("{:?}", slots[0]);
        };
        assert_eq!(texture.size, [2, 1]);
        assert_eq!(texture.rgba, [255, 0, 0, 255, 0, 0, 255, 128]);
        assert_eq!(texture.filters, [9729, 9987]);
    }

    #[test]
    fn a_linear_colour_is_gamma_encoded_for_the_viewport() {
        let [r, g, b, a] = gamma_encoded([0.0, 0.5, 1.0, 0.25]);
        assert_eq!((r, b, a), (0.0, 1.0, 0.25));
        assert!((g - 0.5f32.powf(1.0 / 2.2)).abs() < 1e-6, "{g}");
    }
}
