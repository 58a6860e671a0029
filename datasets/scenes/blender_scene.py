# ruff: noqa: I001
"""Render one table scene in Blender; runs inside the bpy venv (numpy<2), driven by render.py.

    .venv-blender/bin/python datasets/scenes/blender_scene.py JOB.json

The job (written by render.py) names every texture file and every random choice, so this
script decides nothing by itself: it builds the scene, drops the dice with rigid-body
physics, renders the frames the job asks for, and writes RESULT.json next to the images with,
per frame and per die, which face points up, that face's quad in pixels, the tilt, and how
much of the face the camera sees.
"""

import json
import math
import sys
from pathlib import Path

import bpy  # first: bmesh and bpy_extras exist only once bpy is loaded
import bmesh
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Euler, Matrix, Vector

# A die's faces, in the order of its texture atlas (3 columns x 2 rows): outward normals.
FACE_NORMALS = [(0, 0, 1), (0, 0, -1), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0)]
COCKED_DEGREES = 8  # a top face tilted more than this is a cocked (leaning) die
HAND_HEIGHT = 3.0  # a moving hand's height over the table, in dice
REACH_HEIGHT = 1.3  # a hand taking a die: just over its top face


def main(job_path):
    job = json.loads(Path(job_path).read_text())
    out = Path(job["out_dir"])
    out.mkdir(parents=True, exist_ok=True)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    setup_render(scene, job)
    table = add_table(job["table"])
    for item in job["distractors"]:
        add_distractor(item)
    dice = [add_die(i, die) for i, die in enumerate(job["dice"])]
    scene.world = bpy.data.worlds.new("world")
    still = job["frames"] == [job["physics"]["frames"]]
    if not still:  # a clip's camera is fixed; set up before the physics, which later objects reset
        camera, lights = stage(scene, job, [], dice)
    simulate(scene, table, dice, job["physics"])
    if still:  # pin the dice where they settled, then aim cameras at them
        freeze(scene, dice)
        for lean in job.get("leans", []):
            lean_on_neighbour(dice, lean["die"], lean["angle"])
        camera, lights = stage(scene, job, [], dice)
    if job.get("hand"):
        add_hand(job["hand"])  # after the physics: the dice never touch it
    if job.get("pickup"):
        pick_up(scene, job["pickup"], dice, job["physics"]["frames"])
    frames = []
    for number in job["frames"]:
        scene.frame_set(number)
        frames.append(render(scene, camera, dice, out / f"{job['name']}_{number:04d}.png", number))
    for view, shot in enumerate(job.get("views", []), start=1):  # the same settled dice, filmed again
        bpy.data.objects.remove(camera)
        camera, lights = stage(scene, shot, lights, dice)
        frames.append(render(scene, camera, dice, out / f"{job['name']}_v{view:02d}.png", number))
    (out / f"{job['name']}.result.json").write_text(json.dumps({"frames": frames}))


def stage(scene, shot, old_lights, dice):
    """Set up one shot: its camera (aimed near the settled dice), its lights (replacing
    ``old_lights``), ambient and exposure."""
    for light in old_lights:
        bpy.data.objects.remove(light)
    scene.frame_set(scene.frame_end)
    # a die that bounced far away or off the table is left out of the picture, not chased
    places = [die.matrix_world.translation for die in dice]
    places = [p for p in places if p.z > 0 and p.xy.length < 10] or [Vector((0, 0, 0))]
    middle = sum(places, Vector((0, 0, 0))) / len(places)
    spread = max((p - middle).length for p in places) + 0.7
    aimed = shot["camera"].get("aim_at_die")  # a close-up's die, by number among those in view
    aim = middle if aimed is None else places[aimed % len(places)]
    camera = add_camera(scene, shot["camera"], aim, spread)
    lights = [add_light(light) for light in shot["lights"]]
    if shot.get("flash"):
        lights.append(add_flash(shot["flash"], camera))
    scene.world.use_nodes = True
    background = scene.world.node_tree.nodes["Background"]
    background.inputs[0].default_value = (*shot["ambient"], 1)
    background.inputs[1].default_value = 1.0
    scene.view_settings.exposure = shot["exposure"]
    return camera, lights


def render(scene, camera, dice, path, number):
    scene.render.filepath = str(path)
    bpy.ops.render.render(write_still=True)
    return {"frame": number, "image": path.name, "dice": [truth(scene, camera, d) for d in dice]}


def setup_render(scene, job):
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = job["samples"]
    scene.cycles.use_denoising = job["samples"] < 64
    scene.cycles.denoising_prefilter = "FAST"  # the default costs seconds a frame on one core
    scene.cycles.denoising_input_passes = "RGB"
    scene.cycles.max_bounces = 3
    scene.cycles.diffuse_bounces = scene.cycles.glossy_bounces = scene.cycles.transmission_bounces = 2
    scene.cycles.caustics_reflective = scene.cycles.caustics_refractive = False
    scene.render.resolution_x, scene.render.resolution_y = job["size"]
    scene.render.resolution_percentage = 100
    scene.render.threads_mode = "FIXED"
    scene.render.threads = job["threads"]
    scene.render.use_motion_blur = job["motion_blur"]
    scene.render.use_persistent_data = True  # clips: keep the scene between frames
    scene.render.image_settings.file_format = "PNG"
    scene.frame_start, scene.frame_end = 1, max(job["frames"])
    scene.render.fps = job["fps"]
    scene.view_settings.view_transform = "Standard"


def image_material(
    name, texture, roughness, coat=0.0, transmission=0.0, clear=None, hollows=None, depth=None, scatter=None
):
    """A textured material; ``clear``, a mask image, limits ``transmission`` to its white
    (a translucent die's body, not its paint); ``hollows``, a height image, sinks its dark
    parts ``depth`` into the surface (a drilled die's pips), by bumping the shading;
    ``scatter`` (body mask, weight, scale, radius) lets light wander inside the body's plastic
    before it leaves (subsurface scattering), not under its paint."""
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    nodes = material.node_tree.nodes
    bsdf = nodes["Principled BSDF"]
    image = nodes.new("ShaderNodeTexImage")
    image.image = bpy.data.images.load(texture)
    material.node_tree.links.new(image.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Coat Weight"].default_value = coat
    bsdf.inputs["Transmission Weight"].default_value = transmission
    if clear is not None:
        weigh_by_mask(material, clear, transmission, bsdf.inputs["Transmission Weight"])
    if hollows is not None:
        height = data_image(material, hollows)
        height.interpolation = "Cubic"  # a smooth wall, not the texels' steps
        bump = nodes.new("ShaderNodeBump")
        bump.inputs["Distance"].default_value = depth
        material.node_tree.links.new(height.outputs["Color"], bump.inputs["Height"])
        for surface in ("Normal", "Coat Normal"):  # the varnish follows the hollow too
            material.node_tree.links.new(bump.outputs["Normal"], bsdf.inputs[surface])
    if scatter is not None:
        bsdf.inputs["Subsurface Scale"].default_value = scatter["scale"]
        bsdf.inputs["Subsurface Radius"].default_value = scatter["radius"]
        weigh_by_mask(material, scatter["body"], scatter["weight"], bsdf.inputs["Subsurface Weight"])
    return material


def weigh_by_mask(material, mask_path, weight, socket):
    """Feed ``socket`` ``weight`` where the mask image is white and nothing where it is black."""
    mask = data_image(material, mask_path)
    times = material.node_tree.nodes.new("ShaderNodeMath")
    times.operation = "MULTIPLY"
    times.inputs[1].default_value = weight
    material.node_tree.links.new(mask.outputs["Color"], times.inputs[0])
    material.node_tree.links.new(times.outputs["Value"], socket)


def data_image(material, path):
    """An image node of ``material`` that reads ``path`` as numbers (a mask, a height), not colour."""
    node = material.node_tree.nodes.new("ShaderNodeTexImage")
    node.image = bpy.data.images.load(path)
    node.image.colorspace_settings.name = "Non-Color"
    return node


def colour_material(name, rgb, roughness=0.5, metallic=0.0):
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    bsdf = material.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*rgb, 1)
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Metallic"].default_value = metallic
    return material


def link(obj):
    bpy.context.scene.collection.objects.link(obj)
    return obj


def add_table(spec):
    mesh = bpy.data.meshes.new("table")
    bm = bmesh.new()
    bmesh.ops.create_grid(bm, x_segments=1, y_segments=1, size=spec["size"] / 2)
    uv = bm.loops.layers.uv.new()
    for face in bm.faces:
        for loop in face.loops:
            x, y = loop.vert.co.x, loop.vert.co.y
            loop[uv].uv = (x / spec["size"] * spec["repeat"] + 0.5, y / spec["size"] * spec["repeat"] + 0.5)
    bm.to_mesh(mesh)
    bm.free()
    table = link(bpy.data.objects.new("table", mesh))
    table.data.materials.append(
        image_material("table", spec["texture"], spec["roughness"], transmission=spec["transmission"])
    )
    if spec["transmission"] > 0:  # glass: a floor seen through it
        floor = link(bpy.data.objects.new("floor", table.data.copy()))
        floor.location.z = -0.25
        floor.data.materials.clear()
        floor.data.materials.append(colour_material("floor", spec["floor"], 0.8))
    return table


def add_die(index, spec):
    """A cube with bevelled edges, its six faces textured from one 3x2 atlas."""
    mesh = bpy.data.meshes.new(f"die{index}")
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=spec["size"])
    uv = bm.loops.layers.uv.new()
    half = spec["size"] / 2
    for face in bm.faces:
        normal = tuple(round(c) for c in face.normal)
        slot = FACE_NORMALS.index(normal)
        col, row = slot % 3, slot // 3
        u_axis, v_axis = face_axes(Vector(normal))
        for loop in face.loops:
            p = loop.vert.co
            u, v = (p.dot(u_axis) / half + 1) / 2, (p.dot(v_axis) / half + 1) / 2
            loop[uv].uv = ((col + u) / 3, 1 - (row + 1 - v) / 2)
    bm.to_mesh(mesh)
    bm.free()
    die = link(bpy.data.objects.new(f"die{index}", mesh))
    bevel = die.modifiers.new("rounded", "BEVEL")
    bevel.width = spec["size"] * spec["bevel"]
    bevel.segments = 3
    bevel.harden_normals = False
    die.data.materials.append(
        image_material(
            f"die{index}",
            spec["atlas"],
            spec["roughness"],
            coat=0.5,
            transmission=spec.get("transmission", 0.0),
            clear=spec.get("clear"),
            hollows=spec.get("hollows"),
            depth=spec.get("depth"),
            scatter=spec.get("scatter"),
        )
    )
    die.location = spec["start"]
    die.rotation_euler = Euler(spec["rotation"])
    return die


def face_axes(normal: Vector):
    """The in-plane axes that the atlas's u (right) and v (up) follow on a face seen from outside."""
    up = Vector((0, 1, 0)) if abs(normal.z) > 0.5 else Vector((0, 0, 1))
    u = up.cross(normal).normalized()
    v = normal.cross(u).normalized()
    return u, v


def add_distractor(spec):
    kind = spec["kind"]
    if kind == "card":
        bpy.ops.mesh.primitive_cube_add(size=1)
        obj = bpy.context.object
        obj.scale = (spec["size"] * 0.7, spec["size"], 0.0015)
        obj.data.materials.append(image_material("card", spec["texture"], 0.35))
        bpy.ops.object.transform_apply(scale=True)
        smart_uv(obj)
    elif kind == "chip":
        bpy.ops.mesh.primitive_cylinder_add(radius=spec["size"] / 2, depth=spec["size"] * 0.1, vertices=32)
        obj = bpy.context.object
        obj.data.materials.append(colour_material("chip", spec["colour"], 0.4))
    else:  # a cup: an open cylinder with walls
        bpy.ops.mesh.primitive_cylinder_add(radius=spec["size"] / 2, depth=spec["size"] * 1.2, vertices=40)
        obj = bpy.context.object
        wall = obj.modifiers.new("wall", "SOLIDIFY")
        wall.thickness = spec["size"] * 0.05
        obj.data.materials.append(colour_material("cup", spec["colour"], 0.3, spec.get("metallic", 0.0)))
    obj.location = spec["location"]
    obj.location.z += obj.dimensions.z / 2 + 0.0005
    obj.rotation_euler.z = spec["angle"]
    return obj


def smart_uv(obj):
    bpy.context.view_layer.objects.active = obj
    bpy.ops.object.mode_set(mode="EDIT")
    bpy.ops.mesh.select_all(action="SELECT")
    bpy.ops.uv.cube_project()
    bpy.ops.object.mode_set(mode="OBJECT")


def add_hand(spec):
    """A crude hand and forearm, skin coloured, keyframed along the path the job gives; the
    forearm points back the way the hand came in (its angle, minus a right angle)."""
    size = spec["size"]
    bpy.ops.mesh.primitive_uv_sphere_add(radius=1, segments=24, ring_count=12)
    hand = bpy.context.object
    hand.scale = (size * 0.5, size * 0.45, size * 0.15)
    bpy.ops.mesh.primitive_cylinder_add(radius=size * 0.3, depth=size * 3)
    arm = bpy.context.object
    skin = colour_material("skin", spec["colour"], 0.55)
    for obj in (hand, arm):
        obj.data.materials.append(skin)
    for frame, location, angle in spec["path"]:
        back = angle - math.pi / 2
        outward = Vector((math.cos(back), math.sin(back), 0.12))
        hand.location = location
        hand.rotation_euler = (0, 0, back)
        arm.location = Vector(location) + outward * size * 1.9
        arm.rotation_euler = (0, math.radians(84), back)
        for obj in (hand, arm):
            obj.keyframe_insert("location", frame=frame)
            obj.keyframe_insert("rotation_euler", frame=frame)
    return hand


def pick_up(scene, spec, dice, last_frame):
    """A hand that comes in from ``spec["start"]`` (beyond the picture's edge), takes the
    dice on the table one by one, the nearest next, and goes back the way it came, each leg
    as long; each die is gone from the renders after the frame the hand reached it.  Keyframes
    added to the dice after the simulation may reset its cache, so it is stepped through
    again: it comes out as before."""
    first, last = spec["frames"]
    scene.frame_set(first)
    start = Vector((*spec["start"], HAND_HEIGHT))
    left = [die for die in dice if die.matrix_world.translation.z > 0]  # not fallen off the table
    path, here = [[first, list(start), spec["angle"]]], start
    legs = len(left) + 1
    for k in range(len(left)):
        die = min(left, key=lambda d: (d.matrix_world.translation - here).xy.length)
        left.remove(die)
        here = die.matrix_world.translation.copy()
        frame = round(first + (last - first) * (k + 1) / legs)
        path.append([frame, [here.x, here.y, REACH_HEIGHT], spec["angle"]])
        die.hide_render = False
        die.keyframe_insert("hide_render", frame=frame)
        die.hide_render = True
        die.keyframe_insert("hide_render", frame=frame + 1)
    path.append([last, list(start), spec["angle"]])
    add_hand({"size": spec["size"], "colour": spec["colour"], "path": path})
    step_through(scene, last_frame)


def add_camera(scene, spec, middle, spread):
    """A camera looking at ``middle`` (plus the shot's offset) from the shot's tilt and turn,
    far enough back to take in the shot's view, or every die (``spread`` from the middle)."""
    data = bpy.data.cameras.new("camera")
    data.lens = spec["lens"]
    data.dof.use_dof = spec["fstop"] > 0
    data.dof.aperture_fstop = max(spec["fstop"], 0.1)
    camera = link(bpy.data.objects.new("camera", data))
    target = Vector(spec["target"]) + (Vector((middle.x, middle.y, 0)) if spec["aim_at_dice"] else Vector())
    view = max(spec["view"], 2.3 * spread) if spec["fit"] else spec["view"]
    tilt, turn, distance = math.radians(spec["tilt"]), math.radians(spec["turn"]), view * spec["lens"] / 36
    camera.location = target + distance * Vector(
        (math.sin(tilt) * math.cos(turn), math.sin(tilt) * math.sin(turn), math.cos(tilt))
    )
    direction = target - camera.location
    camera.rotation_euler = direction.to_track_quat("-Z", "Y").to_euler()
    camera.rotation_euler.rotate_axis("Z", math.radians(spec["roll"]))
    data.dof.focus_distance = distance * spec["focus"]
    scene.camera = camera
    return camera


def add_light(spec):
    data = bpy.data.lights.new("light", spec["type"])
    data.energy = spec["energy"]
    data.color = spec["colour"]
    if spec["type"] == "AREA":
        data.size = spec["size"]
    light = link(bpy.data.objects.new("light", data))
    light.location = spec["location"]
    light.rotation_euler = (Vector((0, 0, 0)) - Vector(spec["location"])).to_track_quat("-Z", "Y").to_euler()
    return light


def add_flash(spec, camera):
    """A phone's flash: a small point light ``offset`` die widths beside the lens, in the
    camera's own plane, as bright at the dice as ``strength`` makes a room light (whose energy
    is its distance squared times its strength, ``render.shot``)."""
    beside = camera.rotation_euler.to_matrix() @ Vector((*spec["offset"], 0.0))
    data = bpy.data.lights.new("flash", "POINT")
    data.energy = camera.data.dof.focus_distance**2 * spec["strength"]  # focused on the dice
    data.shadow_soft_size = spec["size"]
    flash = link(bpy.data.objects.new("flash", data))
    flash.location = camera.location + beside
    return flash


def simulate(scene, table, dice, spec):
    """Drop the dice onto the table with rigid-body physics and bake the result."""
    bpy.ops.rigidbody.world_add()
    scene.gravity = (0, 0, -spec["gravity"])
    world = scene.rigidbody_world
    world.point_cache.frame_start, world.point_cache.frame_end = 1, spec["frames"]
    world.substeps_per_frame = 20
    world.solver_iterations = 20
    for obj, kind in [(table, "PASSIVE")] + [(die, "ACTIVE") for die in dice]:
        bpy.context.view_layer.objects.active = obj
        obj.select_set(True)
        bpy.ops.rigidbody.object_add(type=kind)
        obj.select_set(False)
        body = obj.rigid_body
        body.collision_shape = "BOX" if kind == "ACTIVE" else "MESH"
        body.friction = spec["friction"]
        body.restitution = spec["bounce"]
        body.collision_margin = 0.0005
        if kind == "ACTIVE":
            body.mass = 0.005
            body.linear_damping, body.angular_damping = 0.2, 0.3
    for obj in bpy.data.objects:  # distractors lie still but dice bounce off them
        if obj.name.startswith(("Cube", "Cylinder")) and obj.rigid_body is None and obj.parent is None:
            bpy.context.view_layer.objects.active = obj
            obj.select_set(True)
            bpy.ops.rigidbody.object_add(type="PASSIVE")
            obj.select_set(False)
    step_through(scene, spec["frames"])


def step_through(scene, last_frame):
    """Every frame of the simulation in order, which fills its cache."""
    for frame in range(1, last_frame + 1):
        scene.frame_set(frame)


def freeze(scene, dice):
    """Drop the physics, keeping each die where it came to rest: cameras and lights added
    after a simulation would otherwise throw its cached motion away."""
    scene.frame_set(scene.frame_end)
    poses = [die.matrix_world.copy() for die in dice]
    bpy.ops.rigidbody.world_remove()
    for die, pose in zip(dice, poses, strict=True):
        die.matrix_world = pose


def lean_on_neighbour(dice, index, degrees):
    """Stand die ``index`` against its nearest neighbour, tilted by ``degrees`` towards it, its
    lower edge on the table: a cocked die, which a settled throw gives too rarely to learn from."""
    leaner = dice[index]
    others = [die for die in dice if die is not leaner]
    if not others:
        return
    here = leaner.matrix_world.translation
    support = min(others, key=lambda die: (die.matrix_world.translation - here).xy.length)
    away = (here - support.matrix_world.translation).xy
    away = away.normalized() if away.length > 1e-6 else Vector((1, 0))
    tilt = math.radians(degrees)
    axis = Vector((-away.y, away.x, 0))  # a positive turn about it tips the top away: turn negative
    rotation = Matrix.Rotation(-tilt, 4, axis) @ leaner.matrix_world.to_quaternion().to_matrix().to_4x4()
    reach = 0.5 * (math.cos(tilt) + math.sin(tilt))  # centre to lowest edge, and to the leaning edge
    place = support.matrix_world.translation.xy + away * (0.5 + reach + 0.02)
    leaner.matrix_world = Matrix.Translation((place.x, place.y, reach)) @ rotation


def truth(scene, camera, die):
    """Which face points up, its quad in pixels, its tilt, and the share of it the camera sees."""
    rotation = die.matrix_world.to_3x3().normalized()
    ups = [(rotation @ Vector(n)).z for n in FACE_NORMALS]
    slot = max(range(6), key=lambda i: ups[i])
    normal = Vector(FACE_NORMALS[slot])
    u, v = face_axes(normal)
    half = die.dimensions.x / 2
    inner = half * 0.92  # the flat part of the face, inside the rounded edges
    centre = die.matrix_world @ (normal * half)
    corners = [
        die.matrix_world @ (normal * half + su * inner * u + sv * inner * v)
        for su, sv in ((-1, 1), (1, 1), (1, -1), (-1, -1))
    ]  # atlas top-left first
    width, height = scene.render.resolution_x, scene.render.resolution_y
    quad = []
    for corner in corners:
        p = world_to_camera_view(scene, camera, corner)
        quad.append([p.x * width, (1 - p.y) * height])
    return {
        "slot": slot,
        "quad": quad,
        "tilt": math.degrees(math.acos(max(-1.0, min(1.0, ups[slot])))),
        "cocked": ups[slot] < math.cos(math.radians(COCKED_DEGREES)),
        # a die the hand took away (``pick_up``) is no longer on the table
        "visible": 0.0 if die.hide_render else seen_share(scene, camera, die, centre, u, v, inner, rotation),
    }


def seen_share(scene, camera, die, centre, u, v, inner, rotation, steps=4):
    """Share of points on the top face that are inside the picture and not hidden by anything."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    origin = camera.matrix_world.translation
    seen = 0
    for i in range(steps):
        for j in range(steps):
            a, b = (2 * i + 1) / steps - 1, (2 * j + 1) / steps - 1
            point = centre + rotation @ (a * inner * u + b * inner * v)
            p = world_to_camera_view(scene, camera, point)
            if not (0 <= p.x <= 1 and 0 <= p.y <= 1 and p.z > 0):
                continue
            direction = point - origin
            hit, location, _, _, obj, _ = scene.ray_cast(depsgraph, origin, direction.normalized())
            if hit and obj.name == die.name and (location - point).length < die.dimensions.x * 0.05:
                seen += 1
    return seen / steps**2


if __name__ == "__main__":
    main(sys.argv[sys.argv.index("--") + 1] if "--" in sys.argv else sys.argv[1])
