//! Real photographs for rendered tables (`pone synth --photos`): table tops
//! tiled with a real texture (wood, stone, leather, cloth, paper) and
//! printed pictures lying on the table showing a real photo. The drawn
//! materials and prints of [`crate::scene`] and [`crate::clutter`] are all a
//! network has otherwise seen; a real table's grain and a real print are
//! what its false cards lie on.
//!
//! The photos come from the art cache (`models/art/fetch_art.py` writes the
//! manifest's `[[photos]]` into `CACHE/_photos/tile/` and
//! `CACHE/_photos/picture/`, with their licences). A scene is dressed with
//! them after it is made ([`Photos::dress`]), from a random stream of its
//! own, so a set made without photos is the same as before.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::clutter::{Kind, Thing, sort_for_drawing, spot_in_view};
use crate::scene::CARD_HEIGHT_CM;
use crate::scene::{Material, PhotoTop, Scene};
use crate::texture::lerp;

/// A photo, ready to sample: linear RGB at full size and at each halving
/// (so a far table's texture is its average, not aliased into speckle).
pub struct Photo {
    /// Its file name without the extension (`gimp-data-wood-wood1`).
    pub name: String,
    levels: Vec<Level>,
}

struct Level {
    width: usize,
    height: usize,
    rgb: Vec<[f32; 3]>,
}

impl Level {
    /// The texel at (x, y), repeated beyond the photo (a table top's photo
    /// is made to tile: `fetch_art.py` mirrors those that are not).
    fn at(&self, x: isize, y: isize) -> [f32; 3] {
        let (x, y) = (
            x.rem_euclid(self.width as isize) as usize,
            y.rem_euclid(self.height as isize) as usize,
        );
        self.rgb[y * self.width + x]
    }

    fn halved(&self) -> Level {
        let (width, height) = ((self.width / 2).max(1), (self.height / 2).max(1));
        let mut rgb = Vec::with_capacity(width * height);
        for y in 0..height {
            for x in 0..width {
                let (x, y) = (2 * x as isize, 2 * y as isize);
                let four = [
                    self.at(x, y),
                    self.at(x + 1, y),
                    self.at(x, y + 1),
                    self.at(x + 1, y + 1),
                ];
                rgb.push(std::array::from_fn(|c| {
                    four.iter().map(|p| p[c]).sum::<f32>() / 4.0
                }));
            }
        }
        Level { width, height, rgb }
    }
}

impl Photo {
    /// A photo from an sRGB image (its colours taken to linear light as the
    /// renderer's card art is: squared).
    pub fn new(name: &str, image: &image::RgbImage) -> Photo {
        let base = Level {
            width: image.width().max(1) as usize,
            height: image.height().max(1) as usize,
            rgb: image
                .pixels()
                .map(|p| p.0.map(|c| (f32::from(c) / 255.0).powi(2)))
                .collect(),
        };
        let mut levels = vec![base];
        while let Some(last) = levels.last()
            && last.width.min(last.height) > 4
        {
            let next = last.halved();
            levels.push(next);
        }
        Photo {
            name: name.to_owned(),
            levels,
        }
    }

    /// Width over height.
    pub fn aspect(&self) -> f32 {
        let base = &self.levels[0];
        base.width as f32 / base.height as f32
    }

    /// Its mean colour, linear RGB.
    pub fn mean(&self) -> [f32; 3] {
        self.levels.last().map_or([0.5; 3], |l| l.rgb[0])
    }

    /// The colour at (`u`, `v`), in widths of the photo from its top left
    /// (repeated beyond it), for a pixel `footprint` widths across.
    pub fn at(&self, u: f32, v: f32, footprint: f32) -> [f32; 3] {
        let base = &self.levels[0];
        let texels = footprint * base.width as f32;
        let level = if texels > 1.0 {
            (texels.log2() as usize).min(self.levels.len() - 1)
        } else {
            0
        };
        let l = &self.levels[level];
        let scale = l.width as f32;
        let (x, y) = (u * scale - 0.5, v * scale - 0.5);
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let (x0, y0) = (x0 as isize, y0 as isize);
        let (a, b, c, d) = (
            l.at(x0, y0),
            l.at(x0 + 1, y0),
            l.at(x0, y0 + 1),
            l.at(x0 + 1, y0 + 1),
        );
        std::array::from_fn(|i| lerp(lerp(a[i], b[i], fx), lerp(c[i], d[i], fx), fy))
    }
}

impl std::fmt::Debug for Photo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let base = &self.levels[0];
        write!(f, "Photo({}, {}x{})", self.name, base.width, base.height)
    }
}

impl PartialEq for Photo {
    fn eq(&self, other: &Photo) -> bool {
        self.name == other.name
    }
}

/// The art cache's photos: table tops and pictures.
#[derive(Debug, Default)]
pub struct Photos {
    /// Textures a table top is tiled with.
    pub tiles: Vec<Arc<Photo>>,
    /// Photos a print on the table shows.
    pub pictures: Vec<Arc<Photo>>,
}

/// The photos could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PhotoError {
    /// The folder is missing or empty.
    #[error(
        "no photos in {0}: run `python3 models/art/fetch_art.py --cache CACHE --designs photos` (it writes CACHE/_photos/)"
    )]
    Missing(PathBuf),
    /// A photo cannot be read.
    #[error(
        "cannot read the photo {path}: {reason} (fetch it again with `python3 models/art/fetch_art.py --designs photos --force`)"
    )]
    Image {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

/// Share of scenes whose table top is a photo's texture.
pub const PHOTO_TOP_SHARE: f64 = 0.5;
/// Share of printed pictures lying on a table that show a photo.
pub const PHOTO_PRINT_SHARE: f64 = 0.8;
/// Share of scenes with raised things of real textures on the table (a box,
/// a stone): one or two.
pub const RAISED_SHARE: f64 = 0.5;

impl Photos {
    /// The photos of the art cache `cache` (`CACHE/_photos/tile/*.png` and
    /// `CACHE/_photos/picture/*.png`, in name order).
    ///
    /// # Errors
    /// When either folder is missing or empty, or a photo cannot be read.
    pub fn from_cache(cache: &Path) -> Result<Photos, PhotoError> {
        let read = |folder: &str| -> Result<Vec<Arc<Photo>>, PhotoError> {
            let dir = cache.join("_photos").join(folder);
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map_err(|_| PhotoError::Missing(cache.to_owned()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "png"))
                .collect();
            files.sort();
            if files.is_empty() {
                return Err(PhotoError::Missing(cache.to_owned()));
            }
            files
                .iter()
                .map(|path| {
                    let image = image::open(path).map_err(|e| PhotoError::Image {
                        path: path.clone(),
                        reason: e.to_string(),
                    })?;
                    let name = path
                        .file_stem()
                        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                    Ok(Arc::new(Photo::new(&name, &image.to_rgb8())))
                })
                .collect()
        };
        Ok(Photos {
            tiles: read("tile")?,
            pictures: read("picture")?,
        })
    }

    /// Dresses a scene with photos, from a random stream of its own seeded by
    /// `seed`: half the table tops become a photo's texture (a pattern's
    /// tile 6 to 40 centimetres wide, a large photo's 40 to 120; turned,
    /// tinted a little), most printed pictures show a photo, and half the
    /// tables gain a raised thing or two made of them: a box whose lid is a
    /// print or a texture, or a stone.
    pub fn dress(&self, scene: &mut Scene, seed: u64) {
        let mut rng = StdRng::seed_from_u64(seed ^ 0x5048_4f54_4f53);
        if !self.tiles.is_empty() && rng.random_bool(PHOTO_TOP_SHARE) {
            let photo = self.tiles[rng.random_range(0..self.tiles.len())].clone();
            // A small pattern is a fine texture repeated; a large photo
            // (a wood or sand close-up) spans much of the table.
            let tile_cm = if photo.levels[0].width >= 400 {
                rng.random_range(40.0..120.0)
            } else {
                rng.random_range(6.0..40.0)
            };
            let tint = std::array::from_fn(|_| rng.random_range(0.8f32..1.2));
            scene.surface.material = Material::Photo(PhotoTop {
                photo,
                tile_cm,
                angle: rng.random_range(0.0..std::f32::consts::TAU),
                tint,
            });
        }
        for thing in &mut scene.surface.things {
            if let Kind::Picture { photo, .. } = &mut thing.kind
                && !self.pictures.is_empty()
                && rng.random_bool(PHOTO_PRINT_SHARE)
            {
                let chosen = self.pictures[rng.random_range(0..self.pictures.len())].clone();
                *photo = Some(PhotoTop {
                    photo: chosen,
                    tile_cm: 0.0,
                    angle: 0.0,
                    tint: [1.0; 3],
                });
            }
        }
        if !self.tiles.is_empty() && !self.pictures.is_empty() && rng.random_bool(RAISED_SHARE) {
            let area = crate::scene::seen_area(&scene.camera);
            for _ in 0..rng.random_range(1..=2) {
                let mut thing = self.raised_thing(&mut rng);
                // Somewhere in view, clear of the cards as far as a few
                // tries can tell (it stands over them, and would hide them).
                let clear = thing.size[0].hypot(thing.size[1]) / 2.0 + CARD_HEIGHT_CM * 0.62;
                thing.center = spot_in_view(&mut rng, area, &scene.cards, clear);
                scene.surface.things.push(thing);
            }
            sort_for_drawing(&mut scene.surface.things);
        }
    }

    /// A raised thing of real textures, standing over the cards: a box (a
    /// game's, a tea tin) whose lid is a print or a texture, or a lump (a
    /// stone, a pine cone) covered in a texture. Its centre is left at the
    /// table's middle.
    fn raised_thing(&self, rng: &mut StdRng) -> Thing {
        let pick =
            |rng: &mut StdRng, from: &[Arc<Photo>]| from[rng.random_range(0..from.len())].clone();
        let tint: [f32; 3] = std::array::from_fn(|_| rng.random_range(0.85f32..1.15));
        let (kind, size, height, photo) = if rng.random_bool(0.6) {
            let photo = if rng.random_bool(0.6) {
                PhotoTop {
                    photo: pick(rng, &self.pictures),
                    tile_cm: 0.0,
                    angle: 0.0,
                    tint,
                }
            } else {
                PhotoTop {
                    photo: pick(rng, &self.tiles),
                    tile_cm: rng.random_range(4.0..20.0),
                    angle: rng.random_range(0.0..std::f32::consts::TAU),
                    tint,
                }
            };
            let size = [rng.random_range(6.0..20.0), rng.random_range(8.0..28.0)];
            let height = rng.random_range(2.0..10.0);
            (
                Kind::Carton {
                    photo: photo.clone(),
                },
                size,
                height,
                photo,
            )
        } else {
            let photo = PhotoTop {
                photo: pick(rng, &self.tiles),
                tile_cm: rng.random_range(3.0..15.0),
                angle: rng.random_range(0.0..std::f32::consts::TAU),
                tint,
            };
            let width = rng.random_range(3.0..12.0);
            let size = [width, width * rng.random_range(1.0..1.6)];
            let height = width * rng.random_range(0.3..0.6);
            (
                Kind::Lump {
                    photo: photo.clone(),
                },
                size,
                height,
                photo,
            )
        };
        let mean = photo.photo.mean();
        let colour = std::array::from_fn(|i| mean[i] * photo.tint[i]);
        Thing {
            kind,
            center: [0.0, 0.0],
            angle: rng.random_range(0.0..std::f32::consts::TAU),
            size,
            height,
            colour,
            accent: colour,
            over_cards: true,
            seed: rng.random(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checker(n: u32) -> image::RgbImage {
        image::RgbImage::from_fn(n, n, |x, y| {
            if (x + y) % 2 == 0 {
                image::Rgb([255, 255, 255])
            } else {
                image::Rgb([0, 0, 0])
            }
        })
    }

    #[test]
    fn a_photo_seen_from_far_is_its_average_and_from_near_its_texels() {
        let photo = Photo::new("checker", &checker(64));
        // Near: a white texel and its black neighbour, each itself.
        let white = photo.at(0.5 / 64.0, 0.5 / 64.0, 1.0 / 256.0);
        let black = photo.at(1.5 / 64.0, 0.5 / 64.0, 1.0 / 256.0);
        assert!(white[0] > 0.99 && black[0] < 0.01, "{white:?} {black:?}");
        // Far: a pixel spanning 8 texels sees their mean, half the light.
        let far = photo.at(0.3, 0.7, 8.0 / 64.0);
        assert!((far[0] - 0.5).abs() < 0.01, "{far:?}");
    }

    #[test]
    fn a_photo_beyond_its_edge_repeats() {
        let image = image::RgbImage::from_fn(4, 1, |x, _| image::Rgb([(x * 80) as u8, 0, 0]));
        let photo = Photo::new("ramp", &image);
        let first = photo.at(0.5 / 4.0, 0.0, 0.0);
        let beyond = photo.at(4.5 / 4.0, 0.0, 0.0);
        let last = photo.at(3.5 / 4.0, 0.0, 0.0);
        assert!((first[0] - beyond[0]).abs() < 1e-6, "{first:?} {beyond:?}");
        assert!(last[0] > first[0] + 0.5, "{first:?} {last:?}");
    }

    #[test]
    fn half_the_tables_dressed_show_their_photo_and_the_rest_are_as_they_were() {
        let designs = crate::art::embedded().expect("the built-in designs");
        let backs: Vec<usize> = designs.iter().map(crate::art::Design::backs).collect();
        let plain = |n: u8| image::RgbImage::from_pixel(8, 8, image::Rgb([n, 40, 255 - n]));
        let photos = Photos {
            tiles: vec![Arc::new(Photo::new("red", &plain(230)))],
            pictures: vec![Arc::new(Photo::new("blue", &plain(10)))],
        };
        let mut dressed = 0;
        for seed in 0..24u64 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut scene =
                crate::scene::random_scene(&mut rng, designs.len(), &backs, 160, 90, seed);
            scene.cards.clear();
            scene.surface.things.clear();
            scene.occluders.clear();
            let before = scene.clone();
            photos.dress(&mut scene, seed);
            // (The raised things, tested below.)
            scene
                .surface
                .things
                .retain(|t| !matches!(t.kind, Kind::Carton { .. } | Kind::Lump { .. }));
            let Material::Photo(top) = &scene.surface.material else {
                assert_eq!(scene, before, "seed {seed}: undressed, unchanged");
                continue;
            };
            dressed += 1;
            assert_eq!(top.photo.name, "red");
            // The table is the photo's red under the scene's light: redder
            // than blue wherever the table shows.
            let image = crate::render::render(&scene, &designs).image;
            let (red, blue) = image.pixels().fold((0u64, 0u64), |(r, b), p| {
                (r + u64::from(p.0[0]), b + u64::from(p.0[2]))
            });
            assert!(red > 2 * blue, "seed {seed}: red {red}, blue {blue}");
        }
        assert!((6..=18).contains(&dressed), "{dressed} of 24 dressed");
    }

    #[test]
    fn a_print_dressed_with_a_photo_shows_it_inside_its_border() {
        let photo = Arc::new(Photo::new(
            "blue",
            &image::RgbImage::from_pixel(6, 4, image::Rgb([20, 40, 250])),
        ));
        let mut thing =
            crate::clutter::random_thing(&mut StdRng::seed_from_u64(3), [0.0; 2], false);
        thing.kind = Kind::Picture {
            border: 0.5,
            blobs: Vec::new(),
            photo: None,
        };
        thing.size = [10.0, 15.0];
        let photos = Photos {
            tiles: Vec::new(),
            pictures: vec![photo],
        };
        let mut scene =
            crate::scene::random_scene(&mut StdRng::seed_from_u64(1), 1, &[1], 64, 36, 1);
        scene.surface.things = vec![thing];
        // Most prints are dressed: some seed among a few dresses this one.
        let dressed = (0..8u64).find_map(|seed| {
            let mut scene = scene.clone();
            photos.dress(&mut scene, seed);
            Some(scene.surface.things.remove(0)).filter(
                |t| matches!(&t.kind, Kind::Picture { photo: Some(p), .. } if p.photo.name == "blue"),
            )
        });
        let thing = dressed.expect("a print dressed in 8 tries");
        let noise = crate::texture::NoiseTile::new(1);
        let middle = thing.top(0, 0.0, 0.0, 0.05, &noise);
        let border = thing.top(0, 4.8, 7.3, 0.05, &noise);
        assert!(middle[2] > 3.0 * middle[0], "the photo's blue: {middle:?}");
        assert!(
            (border[0] - border[2]).abs() < 0.1,
            "the white border: {border:?}"
        );
    }

    #[test]
    fn raised_things_show_their_photos_and_stand_over_the_cards_in_view() {
        let plain = |n: u8| image::RgbImage::from_pixel(8, 8, image::Rgb([n, 40, 255 - n]));
        let photos = Photos {
            tiles: vec![Arc::new(Photo::new("red", &plain(230)))],
            pictures: vec![Arc::new(Photo::new("blue", &plain(10)))],
        };
        let noise = crate::texture::NoiseTile::new(1);
        let (mut prints, mut textures, mut lumps) = (0, 0, 0);
        for seed in 0..40u64 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut scene = crate::scene::random_scene(&mut rng, 1, &[1], 160, 90, seed);
            let cards = scene.cards.len();
            photos.dress(&mut scene, seed);
            assert_eq!(scene.cards.len(), cards);
            let area = crate::scene::seen_area(&scene.camera);
            for thing in &scene.surface.things {
                let redder = |c: [f32; 3]| c[0] > 3.0 * c[2];
                let crown = thing.top(0, 0.0, 0.0, 0.05, &noise);
                match &thing.kind {
                    Kind::Carton { photo } if photo.tile_cm == 0.0 => {
                        prints += 1;
                        assert!(crown[2] > 3.0 * crown[0], "the print's blue: {crown:?}");
                    }
                    Kind::Carton { .. } => {
                        textures += 1;
                        assert!(redder(crown), "the texture's red: {crown:?}");
                    }
                    Kind::Lump { .. } => {
                        lumps += 1;
                        assert!(redder(crown), "the texture's red: {crown:?}");
                        let foot = thing.top(0, thing.size[0] * 0.48, 0.0, 0.05, &noise);
                        assert!(
                            crown[0] > foot[0] * 1.3,
                            "lit from above: {crown:?} {foot:?}"
                        );
                    }
                    _ => continue,
                }
                assert!(thing.over_cards && thing.height >= 1.0, "{thing:?}");
                let [x, y] = thing.center;
                assert!(x >= area[0] && x <= area[2] && y >= area[1] && y <= area[3]);
            }
        }
        assert!(
            prints > 0 && textures > 0 && lumps > 0,
            "{prints} {textures} {lumps}"
        );
    }

    #[test]
    fn a_missing_photo_folder_says_how_to_fetch_it() {
        let err =
            Photos::from_cache(Path::new("/nonexistent/pone-art")).expect_err("no such folder");
        let text = err.to_string();
        assert!(text.contains("/nonexistent/pone-art"), "{text}");
        assert!(text.contains("fetch_art.py"), "{text}");
    }
}
