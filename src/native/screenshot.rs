//! `--screenshot`: let a few frames settle, ask for the image, save it as a PNG, quit.
//! `--deck FILE --export DIR`: the same for every slide, then an HTML handout.

use super::Outcome;
use crate::SkinlabApp;
use crate::deck::Deck;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// One picture on its way: let a few frames settle, ask for the image, save it.
pub(super) struct Shot {
    path: PathBuf,
    /// Frames to draw before the picture at least; then it waits for the app to
    /// settle, up to [`PATIENCE`] frames more.
    frames_left: u32,
    /// Frames drawn since `frames_left` ran out, waiting for the app to settle.
    waited: u32,
    image: Arc<Mutex<Option<Arc<egui::ColorImage>>>>,
}

/// A pending `--screenshot`: one [`Shot`], then quit.
pub(super) struct Screenshot {
    pub(super) shot: Shot,
    pub(super) outcome: Outcome,
}

/// The most frames a screenshot waits for the app to settle (framing, a focused cell's
/// fit) after its first few: a state that never settles is taken as it is then.
pub(super) const PATIENCE: u32 = 60;

impl Screenshot {
    /// Advances one frame, `settled` saying whether the app's layout has settled;
    /// returns whether the job is over (saved, or failed).
    pub(super) fn step(&mut self, ctx: &egui::Context, settled: bool) -> bool {
        let Some(saved) = self.shot.step(ctx, settled) else {
            return false;
        };
        if let Ok(mut outcome) = self.outcome.lock() {
            *outcome = Some(saved);
        }
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        true
    }
}

impl Shot {
    /// A picture to save at `path`.
    pub(super) fn new(path: PathBuf) -> Self {
        Self {
            path,
            frames_left: 5,
            waited: 0,
            image: Default::default(),
        }
    }

    /// Advances one frame, `settled` saying whether the app's layout has settled;
    /// returns whether the picture was saved (or why not) once it is done.
    pub(super) fn step(
        &mut self,
        ctx: &egui::Context,
        settled: bool,
    ) -> Option<Result<(), String>> {
        let image = self.image.lock().ok().and_then(|mut slot| slot.take());
        if let Some(image) = image {
            return Some(
                save_png(&image, &self.path)
                    .map_err(|e| format!("could not save {}: {e}", self.path.display())),
            );
        }
        if self.frames_left == 1 && !settled && self.waited < PATIENCE {
            self.waited += 1;
        } else if self.frames_left > 0 {
            self.frames_left -= 1;
            if self.frames_left == 0 {
                let slot = self.image.clone();
                let repaint = ctx.clone();
                let callback = egui::ScreenshotCallback::new(move |image| {
                    if let Ok(mut slot) = slot.lock() {
                        *slot = Some(image);
                    }
                    repaint.request_repaint();
                });
                ctx.send_viewport_cmd(egui::ViewportCommand::Screenshot(callback));
            }
        }
        ctx.request_repaint();
        None
    }
}

/// A pending `--export`: a [`Shot`] of every slide of the deck, one after another,
/// then the handout, then quit.
pub(super) struct Export {
    dir: PathBuf,
    deck: Deck,
    /// Where each slide's live link points: the web app's address, if given.
    app: Option<String>,
    slide: usize,
    shot: Shot,
    /// Why each slide that failed did, by slide.
    failed: Vec<(usize, String)>,
    outcome: Outcome,
}

/// The file a slide's picture is saved in, numbered from 1.
fn picture(slide: usize) -> String {
    format!("slide-{:02}.png", slide + 1)
}

impl Export {
    /// Exports `deck`, which the app has open at its first slide, into `dir`.
    pub(super) fn new(dir: PathBuf, deck: Deck, app: Option<String>, outcome: Outcome) -> Self {
        let shot = Shot::new(dir.join(picture(0)));
        Self {
            dir,
            deck,
            app,
            slide: 0,
            shot,
            failed: Vec::new(),
            outcome,
        }
    }

    /// Advances one frame; returns whether the job is over.
    pub(super) fn step(&mut self, app: &mut SkinlabApp, ctx: &egui::Context) -> bool {
        let Some(saved) = self.shot.step(ctx, app.settled()) else {
            return false;
        };
        if saved.is_ok() {
            if let Some(why) = app.deck_failure() {
                self.failed.push((self.slide, why.to_owned()));
            }
            // The picture shows only the top of a focused cell that does not fit: the
            // lecturer would scroll in the hall. Said, not failed: some cells are long.
            if let Some(cell) = app.focus() {
                let over = app.focus_overflow();
                if over.y > 1.0 || over.x > 1.0 {
                    eprintln!(
                        "note: slide {} does not fit the screen: its focused cell `{cell}` \
                         runs {:.0} points past the bottom and {:.0} past the side, so the \
                         lecturer would scroll",
                        self.slide + 1,
                        over.y.max(0.0),
                        over.x.max(0.0)
                    );
                }
            }
            self.slide += 1;
            if self.slide < self.deck.slides.len() {
                // A failed slide shows why in its picture; the export goes on.
                let _ = app.open_deck(self.deck.clone(), self.slide);
                self.shot = Shot::new(self.dir.join(picture(self.slide)));
                return false;
            }
        }
        let result = saved.and_then(|()| self.finish());
        if let Ok(mut outcome) = self.outcome.lock() {
            *outcome = Some(result);
        }
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        true
    }

    /// Writes the handout once every picture is saved; fails naming the slides that
    /// failed, if any did.
    fn finish(&self) -> Result<(), String> {
        let path = self.dir.join("index.html");
        let app = self.app.clone().or_else(|| web_app_beside(&self.dir));
        if app.is_none() {
            eprintln!(
                "note: no web app in {} or a folder above it, so the handout writes each \
                 slide's link out to type into the app; --app ADDRESS makes them links",
                self.dir.display()
            );
        }
        std::fs::write(&path, handout(&self.deck, app.as_deref(), &self.failed))
            .map_err(|e| format!("could not save {}: {e}", path.display()))?;
        if self.failed.is_empty() {
            return Ok(());
        }
        let reasons: Vec<&str> = self.failed.iter().map(|(_, why)| why.as_str()).collect();
        Err(format!(
            "{} of {} slides failed (their pictures and the handout say why): {}",
            self.failed.len(),
            self.deck.slides.len(),
            reasons.join(" ")
        ))
    }
}

/// The web app nearest the handout in `dir`, as a relative address that opens from the
/// handout: `app/index.html` in `dir` or in one of the three folders above it (as the
/// book keeps it, so a handout exported into the book opens its links there).
pub fn web_app_beside(dir: &std::path::Path) -> Option<String> {
    let mut up = String::new();
    for folder in dir.ancestors().take(4) {
        if folder.join("app/index.html").is_file() {
            return Some(format!("{up}app/index.html"));
        }
        up += "../";
    }
    None
}

/// Text for HTML: `&`, `<`, `>` and `"` escaped.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The handout: each slide's number, title, picture, speaker notes and live link (to
/// `app`, the web app's address, with the slide's link after `#`). With no web app, each
/// slide's link is written out, to type into the app or give to the desktop app.
pub fn handout(deck: &Deck, app: Option<&str>, failed: &[(usize, String)]) -> String {
    let name = escaped(&deck.name);
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{name}</title>\n<style>\n\
         body {{ font-family: sans-serif; max-width: 64em; margin: 2em auto; padding: 0 1em; line-height: 1.4; }}\n\
         img {{ width: 100%; border: 1px solid #bbb; }}\n\
         code {{ background: #f2f2f2; padding: 0 0.2em; }}\n\
         section {{ margin-bottom: 3em; }}\n\
         .failed {{ color: #a00; }}\n\
         </style>\n</head>\n<body>\n<h1>{name}</h1>\n\
         <p>{} slides. Each picture is the app at that moment. {}</p>\n",
        deck.slides.len(),
        if app.is_some() {
            "Its link opens the same view, live: follow it to the web app, or paste the \
             text after <code>#</code> into the app's link box."
        } else {
            "Its link opens the same view, live: type it into the app's link box, or give \
             it to the desktop app, as in <code>skinlab \"grid\"</code>."
        }
    );
    for (i, slide) in deck.slides.iter().enumerate() {
        let title = escaped(&slide.title);
        let link = escaped(&slide.link);
        html += &format!(
            "<section id=\"slide-{n}\">\n<h2>{n}. {title}</h2>\n\
             <img src=\"{picture}\" alt=\"{title}\">\n",
            n = i + 1,
            picture = picture(i)
        );
        for (_, why) in failed.iter().filter(|(at, _)| *at == i) {
            html += &format!("<p class=\"failed\">{}</p>\n", escaped(why));
        }
        for note in &slide.notes {
            html += &format!("<p>{}</p>\n", escaped(note));
        }
        html += &match app {
            Some(app) => format!(
                "<p>Live: <a href=\"{}#{link}\"><code>{link}</code></a></p>\n</section>\n",
                escaped(app)
            ),
            None => format!(
                "<p>Live: <code>{link}</code> · desktop: <code>skinlab &quot;{link}&quot;</code></p>\n</section>\n"
            ),
        };
    }
    html + "</body>\n</html>\n"
}

fn save_png(image: &egui::ColorImage, path: &std::path::Path) -> Result<(), String> {
    let [w, h] = image.size;
    let bytes: Vec<u8> = image
        .pixels
        .iter()
        .flat_map(|c| c.to_srgba_unmultiplied())
        .collect();
    let png = image::RgbaImage::from_raw(w as u32, h as u32, bytes)
        .ok_or("the screenshot has the wrong size")?;
    png.save(path).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_handout_holds_every_slide_escaped_with_its_notes_and_live_link() {
        let deck = Deck::parse(
            "talk <1>.txt",
            "grid?angle=0.8&bone=1  One vertex & two bones\n> Ask: where does it go?\nxray\n",
        )
        .expect("a deck");
        let html = handout(
            &deck,
            Some("app/index.html"),
            &[(1, "Slide 2 failed: why.".into())],
        );
        assert!(html.contains("<title>talk &lt;1&gt;.txt</title>"), "{html}");
        assert!(
            html.contains("<h2>1. One vertex &amp; two bones</h2>"),
            "{html}"
        );
        assert!(html.contains("<img src=\"slide-01.png\" alt=\"One vertex &amp; two bones\">"));
        assert!(html.contains("<p>Ask: where does it go?</p>"));
        assert!(html.contains(
            "<a href=\"app/index.html#grid?angle=0.8&amp;bone=1\"><code>grid?angle=0.8&amp;bone=1</code></a>"
        ));
        assert!(html.contains("<h2>2. xray</h2>\n<img src=\"slide-02.png\""));
        assert!(html.contains("<p class=\"failed\">Slide 2 failed: why.</p>"));
        assert_eq!(html.matches("<section").count(), 2);
    }

    #[test]
    fn with_no_web_app_the_handout_writes_each_link_out_and_links_nowhere() {
        let deck = Deck::parse("talk.txt", "grid?angle=0.8&bone=1  One vertex\n").expect("a deck");
        let html = handout(&deck, None, &[]);
        assert!(!html.contains("href"), "{html}");
        assert!(
            html.contains("<code>grid?angle=0.8&amp;bone=1</code>"),
            "{html}"
        );
        assert!(html.contains("<code>skinlab &quot;grid?angle=0.8&amp;bone=1&quot;</code>"));
        assert!(html.contains("type it into the app's link box"));
    }

    #[test]
    fn the_web_app_is_found_in_the_folder_or_above_it() {
        let root = std::env::temp_dir().join(format!("skinlab-handout-{}", std::process::id()));
        let deep = root.join("a/b");
        std::fs::create_dir_all(&deep).expect("made");
        assert_eq!(web_app_beside(&deep), None);
        std::fs::create_dir_all(root.join("app")).expect("made");
        std::fs::write(root.join("app/index.html"), "<html>").expect("written");
        assert_eq!(
            web_app_beside(&deep).as_deref(),
            Some("../../app/index.html")
        );
        std::fs::create_dir_all(deep.join("app")).expect("made");
        std::fs::write(deep.join("app/index.html"), "<html>").expect("written");
        assert_eq!(web_app_beside(&deep).as_deref(), Some("app/index.html"));
        let _ = std::fs::remove_dir_all(&root);
    }
}
