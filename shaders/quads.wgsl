// Instanced rounded rectangles: the board's tiles and the frontier heatmap's cells.
// Coordinates are in egui points relative to the view's top-left corner; `view.size` is the
// view's size in points (egui-wgpu sets the viewport to the view's rect).

struct View {
    size: vec2<f32>,
    _pad: vec2<f32>,
}

@group(0) @binding(0) var<uniform> view: View;

struct Quad {
    // x0, y0, x1, y1 in points.
    @location(0) rect: vec4<f32>,
    // Straight (not premultiplied) RGBA, gamma-encoded like egui's colours.
    @location(1) color: vec4<f32>,
    // x = corner radius in points, y = shading strength (0 = flat).
    @location(2) style: vec4<f32>,
}

struct VsOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) color: vec4<f32>,
    @location(1) local: vec2<f32>,
    @location(2) half: vec2<f32>,
    @location(3) style: vec4<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) vi: u32, q: Quad) -> VsOut {
    let corner = vec2<f32>(f32(vi & 1u), f32((vi >> 1u) & 1u));
    let p = mix(q.rect.xy, q.rect.zw, corner);
    var out: VsOut;
    out.pos = vec4<f32>(p.x / view.size.x * 2.0 - 1.0, 1.0 - p.y / view.size.y * 2.0, 0.0, 1.0);
    out.color = q.color;
    out.half = (q.rect.zw - q.rect.xy) * 0.5;
    out.local = p - (q.rect.xy + out.half);
    out.style = q.style;
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    let r = min(in.style.x, min(in.half.x, in.half.y));
    let q = abs(in.local) - in.half + vec2<f32>(r, r);
    let d = length(max(q, vec2<f32>(0.0, 0.0))) + min(max(q.x, q.y), 0.0) - r;
    let coverage = clamp(0.5 - d, 0.0, 1.0);
    // A soft top-left light for tiles.
    let t = clamp(-(in.local.x + in.local.y) / max(in.half.x + in.half.y, 1.0), -1.0, 1.0);
    let rgb = clamp(in.color.rgb * (1.0 + 0.18 * in.style.y * t), vec3<f32>(0.0), vec3<f32>(1.0));
    return vec4<f32>(rgb, in.color.a * coverage);
}
