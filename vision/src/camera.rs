//! A pinhole camera above the table: table points (centimetres, on the plane
//! z = 0) to pixels and back.

/// A 3-vector.
pub type Vec3 = [f32; 3];

fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: Vec3, b: Vec3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalize(a: Vec3) -> Vec3 {
    let n = dot(a, a).sqrt().max(1e-9);
    [a[0] / n, a[1] / n, a[2] / n]
}

/// A camera looking at the table. Table axes: x to the dealer's right, y away
/// from the dealer, z up; the table top is z = 0.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Camera {
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Where the camera is, in centimetres.
    pub position: Vec3,
    /// Focal length in pixels.
    pub focal: f32,
    right: Vec3,
    down: Vec3,
    forward: Vec3,
}

impl Camera {
    /// A camera at `position` looking at `target`, turned `roll` radians about
    /// its axis, with a horizontal field of view of `hfov` radians.
    pub fn look_at(
        width: u32,
        height: u32,
        position: Vec3,
        target: Vec3,
        roll: f32,
        hfov: f32,
    ) -> Camera {
        let forward = normalize(sub(target, position));
        let up_hint = if forward[2].abs() > 0.999 {
            [0.0, 1.0, 0.0]
        } else {
            [0.0, 0.0, 1.0]
        };
        let right0 = normalize(cross(forward, up_hint));
        let down0 = cross(forward, right0);
        let (s, c) = roll.sin_cos();
        let right = [
            c * right0[0] + s * down0[0],
            c * right0[1] + s * down0[1],
            c * right0[2] + s * down0[2],
        ];
        let down = cross(forward, right);
        Camera {
            width,
            height,
            position,
            focal: width as f32 / 2.0 / (hfov / 2.0).tan(),
            right,
            down,
            forward,
        }
    }

    /// The pixel a table point (x, y, z) projects to; `None` behind the camera.
    pub fn project(&self, point: Vec3) -> Option<(f32, f32)> {
        let p = sub(point, self.position);
        let z = dot(p, self.forward);
        if z <= 1e-3 {
            return None;
        }
        Some((
            self.focal * dot(p, self.right) / z + self.width as f32 / 2.0,
            self.focal * dot(p, self.down) / z + self.height as f32 / 2.0,
        ))
    }

    /// The table-plane point a pixel sees; `None` above the horizon.
    pub fn unproject(&self, x: f32, y: f32) -> Option<(f32, f32)> {
        let (u, v) = (
            (x - self.width as f32 / 2.0) / self.focal,
            (y - self.height as f32 / 2.0) / self.focal,
        );
        let dir = [
            self.forward[0] + u * self.right[0] + v * self.down[0],
            self.forward[1] + u * self.right[1] + v * self.down[1],
            self.forward[2] + u * self.right[2] + v * self.down[2],
        ];
        if dir[2] >= -1e-6 {
            return None;
        }
        let t = -self.position[2] / dir[2];
        Some((self.position[0] + t * dir[0], self.position[1] + t * dir[1]))
    }

    /// Whether the pixel's ray goes down to the table (below the horizon).
    pub fn sees_plane_at(&self, x: f32, y: f32) -> bool {
        let (u, v) = (
            (x - self.width as f32 / 2.0) / self.focal,
            (y - self.height as f32 / 2.0) / self.focal,
        );
        self.forward[2] + u * self.right[2] + v * self.down[2] < -1e-6
    }

    /// The 3x3 homography taking pixels to table-plane (x, y), row-major: the
    /// inverse of [`Camera::plane_homography`].
    pub fn image_to_plane(&self) -> Option<[f32; 9]> {
        let m = self.plane_homography();
        let det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
            + m[2] * (m[3] * m[7] - m[4] * m[6]);
        if det.abs() < 1e-12 {
            return None;
        }
        let inv = [
            m[4] * m[8] - m[5] * m[7],
            m[2] * m[7] - m[1] * m[8],
            m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8],
            m[0] * m[8] - m[2] * m[6],
            m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6],
            m[1] * m[6] - m[0] * m[7],
            m[0] * m[4] - m[1] * m[3],
        ];
        Some(inv.map(|v| v / det))
    }

    /// The 3x3 homography taking table-plane (x, y) to pixels, row-major.
    pub fn plane_homography(&self) -> [f32; 9] {
        // Columns: the images of the x axis, the y axis and the origin.
        let (w2, h2, f) = (
            self.width as f32 / 2.0,
            self.height as f32 / 2.0,
            self.focal,
        );
        let row = |axis: Vec3| f * dot(axis, self.right) + w2 * dot(axis, self.forward);
        let col = |axis: Vec3| f * dot(axis, self.down) + h2 * dot(axis, self.forward);
        let origin = sub([0.0; 3], self.position);
        [
            row([1.0, 0.0, 0.0]),
            row([0.0, 1.0, 0.0]),
            row(origin),
            col([1.0, 0.0, 0.0]),
            col([0.0, 1.0, 0.0]),
            col(origin),
            dot([1.0, 0.0, 0.0], self.forward),
            dot([0.0, 1.0, 0.0], self.forward),
            dot(origin, self.forward),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_projected_and_unprojected_comes_back() {
        let cam = Camera::look_at(1280, 720, [5.0, -60.0, 80.0], [0.0, 10.0, 0.0], 0.1, 1.1);
        for p in [[0.0, 10.0], [20.0, -5.0], [-35.0, 30.0]] {
            let (x, y) = cam.project([p[0], p[1], 0.0]).expect("in front");
            let (u, v) = cam.unproject(x, y).expect("on the table");
            assert!(
                (u - p[0]).abs() < 1e-2 && (v - p[1]).abs() < 1e-2,
                "{p:?} -> {u},{v}"
            );
            let h = cam.plane_homography();
            let w = h[6] * p[0] + h[7] * p[1] + h[8];
            let hx = (h[0] * p[0] + h[1] * p[1] + h[2]) / w;
            let hy = (h[3] * p[0] + h[4] * p[1] + h[5]) / w;
            assert!((hx - x).abs() < 1e-2 && (hy - y).abs() < 1e-2);
        }
        let back = cam.image_to_plane().expect("invertible");
        let (x, y) = cam.project([20.0, -5.0, 0.0]).expect("in front");
        let w = back[6] * x + back[7] * y + back[8];
        let (u, v) = (
            (back[0] * x + back[1] * y + back[2]) / w,
            (back[3] * x + back[4] * y + back[5]) / w,
        );
        assert!((u - 20.0).abs() < 1e-2 && (v + 5.0).abs() < 1e-2, "{u},{v}");
        assert!(cam.sees_plane_at(x, y) && !cam.sees_plane_at(640.0, -5000.0));
        let (cx, cy) = cam.project([0.0, 10.0, 0.0]).expect("target");
        assert!(
            (cx - 640.0).abs() < 1.0 && (cy - 360.0).abs() < 1.0,
            "the target is at the centre"
        );
    }
}
