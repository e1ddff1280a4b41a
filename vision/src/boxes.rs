//! Boxes (`[x0, y0, x1, y1]` in pixels) and points: the few measures the
//! finder, the tracker and the live table share.

/// Intersection over union of two boxes (0 when either is empty).
pub fn iou(a: [f32; 4], b: [f32; 4]) -> f32 {
    let inter = intersection(a, b);
    let union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
    if union > 0.0 { inter / union } else { 0.0 }
}

/// A box's area (0 when it is empty).
pub fn area(b: [f32; 4]) -> f32 {
    (b[2] - b[0]).max(0.0) * (b[3] - b[1]).max(0.0)
}

/// How much of the smaller of two boxes lies inside the other (0 when either
/// is empty): 1 for a box wholly inside another, however much larger that is.
pub fn share_of_smaller(a: [f32; 4], b: [f32; 4]) -> f32 {
    let smaller = area(a).min(area(b));
    if smaller > 0.0 {
        intersection(a, b) / smaller
    } else {
        0.0
    }
}

/// How much of box `inner` lies inside box `outer` (0 when `inner` is
/// empty).
pub fn share_within(inner: [f32; 4], outer: [f32; 4]) -> f32 {
    let a = area(inner);
    if a > 0.0 {
        intersection(inner, outer) / a
    } else {
        0.0
    }
}

/// The area two boxes share (0 when they do not meet).
fn intersection(a: [f32; 4], b: [f32; 4]) -> f32 {
    let w = (a[2].min(b[2]) - a[0].max(b[0])).max(0.0);
    let h = (a[3].min(b[3]) - a[1].max(b[1])).max(0.0);
    w * h
}

/// The box around some points (a finder's window, a card's corners).
pub fn bounds(points: &[[f32; 2]]) -> [f32; 4] {
    points.iter().fold(
        [
            f32::INFINITY,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
        ],
        |b, p| {
            [
                b[0].min(p[0]),
                b[1].min(p[1]),
                b[2].max(p[0]),
                b[3].max(p[1]),
            ]
        },
    )
}

/// A box's centre.
pub fn centre(b: [f32; 4]) -> [f32; 2] {
    [f32::midpoint(b[0], b[2]), f32::midpoint(b[1], b[3])]
}

/// Whether a point lies in a box (its edges included).
pub fn contains(b: [f32; 4], p: [f32; 2]) -> bool {
    p[0] >= b[0] && p[0] <= b[2] && p[1] >= b[1] && p[1] <= b[3]
}

/// A box's longer side: a card's size on the picture.
pub fn long_side(b: [f32; 4]) -> f32 {
    (b[2] - b[0]).max(b[3] - b[1])
}

/// Whether `p` lies inside the convex quadrilateral `quad` (corners in order, either way round).
pub fn in_quad(quad: &[[f32; 2]; 4], p: [f32; 2]) -> bool {
    let sides = (0..4).map(|i| {
        let (a, b) = (quad[i], quad[(i + 1) % 4]);
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    });
    let (mut left, mut right) = (false, false);
    for side in sides {
        left |= side > 0.0;
        right |= side < 0.0;
    }
    !(left && right)
}

/// The share of the convex quadrilateral `a` that lies in the convex
/// quadrilateral `b`, measured on a grid of 8x8 points spread over `a`.
pub fn share_inside(a: &[[f32; 2]; 4], b: &[[f32; 2]; 4]) -> f32 {
    const N: usize = 8;
    let mut inside = 0;
    for i in 0..N {
        for j in 0..N {
            let (u, v) = ((i as f32 + 0.5) / N as f32, (j as f32 + 0.5) / N as f32);
            let weights = [(1.0 - u) * (1.0 - v), u * (1.0 - v), u * v, (1.0 - u) * v];
            let p = [0, 1].map(|k| (0..4).map(|c| weights[c] * a[c][k]).sum::<f32>());
            inside += usize::from(in_quad(b, p));
        }
    }
    inside as f32 / (N * N) as f32
}

/// The area of the quadrilateral `q` (its corners in order, either way round).
pub fn quad_area(q: &[[f32; 2]; 4]) -> f32 {
    let twice: f32 = (0..4)
        .map(|i| {
            let (a, b) = (q[i], q[(i + 1) % 4]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum();
    twice.abs() / 2.0
}

/// The distance between two points.
pub fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_of_the_smaller_box_inside_the_other() {
        let big = [0.0, 0.0, 100.0, 100.0];
        let cases = [
            ([10.0, 10.0, 30.0, 30.0], 1.0),   // wholly inside
            ([50.0, 0.0, 150.0, 100.0], 0.5),  // half over the edge
            ([200.0, 0.0, 300.0, 100.0], 0.0), // apart
            ([10.0, 10.0, 10.0, 30.0], 0.0),   // empty
        ];
        for (other, share) in cases {
            assert!(
                (share_of_smaller(big, other) - share).abs() < 1e-6,
                "{other:?}"
            );
            assert!(
                (share_of_smaller(other, big) - share).abs() < 1e-6,
                "{other:?}"
            );
        }
    }
}
