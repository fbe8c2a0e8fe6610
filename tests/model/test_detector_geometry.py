"""Tiling, merging, the half-size second pass and the turned reading over a photo, with fake models instead of the real one."""

from dataclasses import replace

import numpy as np
import pytest

from scoring.detection_classes import CLASS_NAMES
from vision.detection import Detection, box_iou
from vision.detector import Detector, InferenceConfig, fuse_readings, nms_merge, tile_origins, turned, turned_back, zoom_for


def test_tiles_cover_the_whole_length_with_overlap():
    origins = tile_origins(1500, 640, 128)
    assert origins[0] == 0 and origins[-1] == 1500 - 640
    assert all(b - a <= 640 - 128 for a, b in zip(origins, origins[1:]))


def test_small_image_is_one_tile():
    assert tile_origins(500, 640, 128) == [0]


def test_merge_keeps_the_surer_of_two_overlapping_boxes_of_one_class():
    a = Detection("7", 0.9, (100, 100, 130, 150))
    b = Detection("7", 0.6, (102, 101, 131, 151))
    c = Detection("8", 0.5, (102, 101, 131, 151))  # another class at the same place stays
    assert nms_merge([b, a, c], 0.5) == [a, c]


def test_box_iou_of_disjoint_boxes_is_zero():
    assert box_iou((0, 0, 1, 1), (2, 2, 3, 3)) == 0.0


ONE_READING = InferenceConfig().once()  # the photo read as it is only


class _Boxes:
    def __init__(self, rows):
        import torch

        self.xyxy = torch.tensor([r[:4] for r in rows], dtype=torch.float32).reshape(-1, 4)
        self.conf = torch.tensor([r[4] for r in rows], dtype=torch.float32)
        self.cls = torch.tensor([r[5] for r in rows], dtype=torch.float32)


class _Result:
    def __init__(self, rows):
        self.boxes = _Boxes(rows)


class _ScaleModel:
    """Reads a large index unsurely at full size (as an 8) and surely at half size (as a 9).

    Boxes are given in the full image's pixels: (x1, y1, x2, y2) of the index.
    """

    names = {i: n for i, n in enumerate(CLASS_NAMES)}

    def __init__(self, index_box, small_box):
        self.index_box, self.small_box = index_box, small_box
        self.sizes = []

    def predict(self, crops, imgsz, **_):
        out = []
        for crop in crops:
            width = crop.shape[1]
            self.sizes.append(width)
            f = width / 600  # this fake's photos are 600 px wide
            rows = [[*(v * f for v in self.small_box), 0.9 if f == 1 else 0.95, CLASS_NAMES.index("K")]]
            if f == 1:
                rows.append([*self.index_box, 0.4, CLASS_NAMES.index("8")])
            else:
                rows.append([*(v * f for v in self.index_box), 0.8, CLASS_NAMES.index("9")])
            out.append(_Result(rows))
        return out


def test_a_close_up_index_is_read_at_half_size_and_small_ones_at_full_size():
    big, small = (100, 100, 220, 260), (400, 400, 424, 430)
    model = _ScaleModel(big, small)
    photo = np.zeros((400, 600, 3), np.uint8)
    found = Detector(model, InferenceConfig(coarse_scale=0.5, index_target=None).once()).detect(photo)
    assert model.sizes == [300, 600]
    by_class = {d.cls: d for d in found}
    assert set(by_class) == {"9", "K"}  # the unsure 8 gave way; the small K was not doubled
    assert by_class["9"].box == pytest.approx(big)
    assert by_class["K"].conf == pytest.approx(0.9)  # from the full-size pass: too small for the coarse one


def test_without_the_coarse_pass_the_photo_is_read_once():
    model = _ScaleModel((100, 100, 220, 260), (400, 400, 424, 430))
    found = Detector(model, InferenceConfig(coarse_scale=None, index_target=None).once()).detect(np.zeros((400, 600, 3), np.uint8))
    assert model.sizes == [600]
    assert sorted(d.cls for d in found) == ["8", "K"]


class _PhotoScaleModel:
    """A fake model over 600 px wide photos: records each crop's width and answers `read(crop)`: by
    default `rows(f)`, f its scale."""

    names = {i: n for i, n in enumerate(CLASS_NAMES)}

    def __init__(self):
        self.sizes = []

    def predict(self, crops, imgsz, **_):
        out = []
        for crop in crops:
            self.sizes.append(crop.shape[1])
            out.append(_Result(self.read(crop)))
        return out

    def read(self, crop):
        return self.rows(crop.shape[1] / 600)


class _SharpEyedModel(_PhotoScaleModel):
    """Reads one index (given in a 600 px wide photo's pixels) as a 9 when its height is within `sharp`, else as a 6."""

    def __init__(self, index_box, sharp=(40.0, float("inf"))):
        super().__init__()
        self.index_box = index_box
        self.sharp = sharp

    def rows(self, f):
        x1, y1, x2, y2 = (v * f for v in self.index_box)
        cls = "9" if self.sharp[0] <= y2 - y1 <= self.sharp[1] else "6"
        return [[x1, y1, x2, y2, 0.9 if cls == "9" else 0.5, CLASS_NAMES.index(cls)]]


class _SharpEyedPairModel(_SharpEyedModel):
    """`_SharpEyedModel` over two indices of one height."""

    def __init__(self, index_box, other_box, sharp):
        super().__init__(index_box, sharp)
        self.other_box = other_box

    def rows(self, f):
        (row,) = super().rows(f)
        return [row, [*(v * f for v in self.other_box), *row[4:]]]


def test_a_photo_of_small_indices_is_read_again_enlarged_and_that_reading_counts():
    box = (300, 200, 320, 230)  # 30 px tall: under three quarters of the 48 px the detector aims for
    model = _SharpEyedModel(box)
    found = Detector(model, ONE_READING).detect(np.zeros((400, 600, 3), np.uint8))
    assert model.sizes == [300, 600, 960, 480]  # read at half size and as it is, then enlarged 48/30 = 1.6 times
    assert [d.cls for d in found] == ["9"]
    assert found[0].box == pytest.approx(box)  # in the photo's own pixels


def test_an_enlarged_reading_twice_the_first_reads_no_half_size_pass_again():
    box = (300, 200, 315, 220)  # 20 px tall: 48/20 would be 2.4, capped at 2
    model = _SharpEyedModel(box)
    found = Detector(model, ONE_READING).detect(np.zeros((400, 600, 3), np.uint8))
    assert model.sizes == [300, 600, 1200]  # the 600 px reading stands in for the enlarged one's half-size pass
    assert [d.cls for d in found] == ["9"]
    assert found[0].box == pytest.approx(box)


class _ShortSightedModel(_PhotoScaleModel):
    """Reads each (class, box in a 600 px wide photo's pixels) whose height at this crop's scale is at most 80 px."""

    def __init__(self, indices):
        super().__init__()
        self.indices = indices

    def rows(self, f):
        return [[*(v * f for v in box), 0.9, CLASS_NAMES.index(cls)] for cls, box in self.indices if (box[3] - box[1]) * f <= 80]


def test_the_first_readings_boxes_still_give_the_enlarged_reading_its_large_indices():
    small = [("7", (100 + 40 * i, 300, 112 + 40 * i, 320)) for i in range(3)]  # 20 px: read again twice as large
    big = ("K", (400, 50, 430, 100))  # 50 px: 100 px when enlarged, too tall for the model's full-size pass there
    model = _ShortSightedModel([*small, big])
    found = Detector(model, ONE_READING).detect(np.zeros((400, 600, 3), np.uint8))
    assert model.sizes == [300, 600, 1200]
    assert sorted(d.cls for d in found) == ["7", "7", "7", "K"]
    assert next(d for d in found if d.cls == "K").box == pytest.approx(big[1])


def test_a_photo_of_indices_near_the_aimed_height_is_read_once():
    model = _SharpEyedModel((300, 200, 330, 250))  # 50 px tall
    found = Detector(model, ONE_READING).detect(np.zeros((400, 600, 3), np.uint8))
    assert model.sizes == [300, 600]
    assert [d.cls for d in found] == ["9"]


def test_a_photo_of_large_indices_is_read_again_shrunk_and_that_reading_counts():
    box = (200, 100, 260, 260)  # 160 px tall: too tall for the model even in the half-size pass (80 px)
    model = _SharpEyedModel(box, sharp=(36.0, 64.0))  # reads well only near the aimed height
    found = Detector(model, ONE_READING).detect(np.zeros((400, 600, 3), np.uint8))
    assert model.sizes == [300, 600, 180, 90]  # read at half size and as it is, then shrunk to 48/160
    assert [d.cls for d in found] == ["9"]
    assert found[0].box == pytest.approx(box, abs=1.5)  # in the photo's own pixels
    # two large indices and nothing smaller: the half-size pass alone says so, the full-size one is never run
    model = _SharpEyedPairModel(box, (400, 100, 460, 260), sharp=(36.0, 64.0))
    assert [d.cls for d in Detector(model, ONE_READING).detect(np.zeros((400, 600, 3), np.uint8))] == ["9", "9"]
    assert model.sizes == [300, 180, 90]
    # a 70 px index is large too (over 64 px), but under the 80 px the half-size pass is trusted from
    model = _SharpEyedModel((200, 100, 235, 170), sharp=(36.0, 64.0))
    assert [d.cls for d in Detector(model, ONE_READING).detect(np.zeros((400, 600, 3), np.uint8))] == ["9"]
    assert model.sizes == [300, 600, 411, 206]  # half size, full size, then shrunk to 48/70 (and its half-size pass)
    # with shrinking turned off the large index stays misread
    model = _SharpEyedModel(box, sharp=(36.0, 64.0))
    found = Detector(model, replace(ONE_READING, shrink_above=None)).detect(np.zeros((400, 600, 3), np.uint8))
    assert model.sizes == [300, 600] and [d.cls for d in found] == ["6"]


def test_a_photo_is_read_at_another_share_of_its_reading_scale_too_and_that_reading_counts():
    box = (300, 200, 330, 250)  # 50 px tall: near the aimed height, so the first reading is at 1
    config = InferenceConfig(coarse_scale=None, ink_threes=False, turns=(), scales=(1.5,)).every_way()
    model = _SharpEyedModel(box, sharp=(70.0, float("inf")))  # reads it right only enlarged (75 px)
    found = Detector(model, config).detect(np.zeros((400, 600, 3), np.uint8))
    assert model.sizes == [600, 900]  # as it is, then at 1.5 times that scale
    fused = {d.cls: d for d in found}
    assert fused["9"].conf == pytest.approx(0.45) and fused["9"].box == pytest.approx(box)  # in the photo's pixels
    model = _SharpEyedModel(box, sharp=(70.0, float("inf")))
    assert [d.cls for d in Detector(model, config.once()).detect(np.zeros((400, 600, 3), np.uint8))] == ["6"]
    assert model.sizes == [600]  # once: neither turned nor at another scale


def test_the_other_scale_is_a_share_of_the_enlarged_reading():
    box = (300, 200, 315, 220)  # 20 px tall: read again twice as large
    model = _SharpEyedModel(box)
    Detector(model, InferenceConfig(coarse_scale=None, ink_threes=False, turns=(), scales=(0.75,)).every_way()).detect(
        np.zeros((400, 600, 3), np.uint8)
    )
    assert model.sizes == [600, 1200, 900]


def test_the_shrinking_leaves_indices_near_the_aimed_height_alone():
    config = InferenceConfig()
    assert zoom_for([Detection("7", 0.9, (0, 0, 30, 60))], config) == 1.0  # 60 px: under 64
    assert zoom_for([Detection("7", 0.9, (0, 0, 50, 96))], config) == pytest.approx(0.5)
    assert zoom_for([Detection("7", 0.9, (0, 0, 50, 96))], InferenceConfig(shrink_above=None)) == 1.0


def test_the_enlargement_ignores_unsure_boxes_and_is_capped():
    sure_big = [Detection("7", 0.9, (0, 0, 30, 60))] * 3
    unsure_small = [Detection("7", 0.1, (0, 0, 8, 12))] * 10
    config = InferenceConfig()
    assert zoom_for(sure_big + unsure_small, config) == 1.0
    assert zoom_for([Detection("7", 0.9, (0, 0, 8, 12))], config) == config.max_zoom  # 48/12 would be 4
    assert zoom_for([Detection("7", 0.9, (0, 0, 20, 32))], config) == pytest.approx(1.5)
    assert zoom_for([Detection("7", 0.9, (0, 0, 8, 12))], InferenceConfig(index_target=None)) == 1.0
    assert zoom_for([], config) == 1.0


def test_two_readings_keep_a_box_both_carry_and_drop_one_only_one_saw_unsurely():
    upright = [Detection("9", 0.4, (10, 10, 30, 40)), Detection("K", 0.5, (100, 100, 120, 130)), Detection("7", 0.9, (200, 200, 220, 230))]
    upside_down = [Detection("9", 0.2, (12, 10, 32, 40)), Detection("Q", 0.5, (100, 100, 120, 130))]
    fused = {d.cls: d for d in fuse_readings([upright, upside_down], conf=0.3, iou=0.5)}
    assert set(fused) == {"9", "7"}  # K and Q each seen by one reading at 0.5: a mean of 0.25
    assert fused["9"].conf == pytest.approx(0.3)
    assert fused["9"].box == pytest.approx((10 + 2 / 3, 10, 30 + 2 / 3, 40))  # weighted by confidence
    assert fused["7"].conf == pytest.approx(0.45)


def test_three_readings_keep_what_their_mean_carries_and_each_box_joins_one_group_per_reading():
    first = [Detection("9", 0.6, (10, 10, 30, 40)), Detection("K", 0.8, (100, 100, 120, 130))]
    second = [Detection("9", 0.3, (10, 10, 30, 40)), Detection("9", 0.3, (11, 10, 31, 40))]  # a doubled box
    third = [Detection("9", 0.3, (10, 12, 30, 42)), Detection("K", 0.4, (101, 100, 121, 130))]
    fused = fuse_readings([first, second, third], conf=0.3, iou=0.5)
    assert sorted((d.cls, round(d.conf, 3)) for d in fused) == [("9", 0.4), ("K", 0.4)]  # the double: 0.1 alone
    assert fuse_readings([first, [], []], conf=0.3, iou=0.5) == []  # 0.8 from one reading of three


@pytest.mark.parametrize("degrees", [90, 180, 270])
def test_a_box_found_on_a_turned_photo_comes_back_to_its_place(degrees):
    photo = np.zeros((40, 60, 3), np.uint8)
    photo[5:15, 20:28] = 255  # the box (20, 5, 28, 15)
    seen = turned(photo, degrees)
    ys, xs = np.nonzero(seen[:, :, 0])
    found = Detection("7", 0.9, (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1))
    assert turned_back(found, degrees, width=60, height=40).box == (20, 5, 28, 15)


class _InkModel(_PhotoScaleModel):
    """Boxes whatever is bright in each crop as a 9 (a bright dot beside the index above its middle) or a
    6 (below it), so a photo turned half round reads otherwise, as a real model might."""

    def read(self, crop):
        ys, xs = np.nonzero(crop[:, :, 0] > 100)
        dots = np.nonzero(crop[:, :, 1] > 100)[0]
        if not len(xs):
            return []
        cls = "9" if dots.mean() < ys.mean() else "6"
        return [[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1, 0.9, CLASS_NAMES.index(cls)]]


def test_a_photo_is_read_turned_half_round_too_and_its_boxes_come_back_in_place():
    photo = np.zeros((400, 600, 3), np.uint8)
    photo[100:150, 400:430, 0] = 255  # an index 50 px tall (read once: no enlarging)
    photo[110:112, 432:434, 1] = 255  # its dot, near the top: a 9 as it is, a 6 turned
    model = _InkModel()
    found = Detector(model, InferenceConfig(coarse_scale=None, ink_threes=False, turns=(180,), scales=()).every_way()).detect(photo)
    assert model.sizes == [600, 600]  # as it is, then turned
    assert sorted(d.cls for d in found) == ["6", "9"]  # each from one reading: 0.45
    assert all(d.box == pytest.approx((400, 100, 430, 150)) for d in found)  # the turned one mapped back
    photo[110:112, 432:434, 1] = 0
    photo[124:126, 432:434, 1] = 255  # the dot at the middle: both readings say 6
    model = _InkModel()
    found = Detector(model, InferenceConfig(coarse_scale=None, ink_threes=False, turns=(180,), scales=()).every_way()).detect(photo)
    assert [(d.cls, round(d.conf, 3)) for d in found] == [("6", 0.9)]
    model = _InkModel()  # read the other ways: by default a quarter turn too, and at three quarters of its scale
    found = Detector(model, InferenceConfig(coarse_scale=None, ink_threes=False).every_way()).detect(photo)
    assert model.sizes == [600, 600, 400, 450]
    assert found and all(d.box == pytest.approx((400, 100, 430, 150)) for d in found)


@pytest.mark.parametrize("degrees", [90, 180])
def test_a_photo_read_shrunk_and_turned_finds_its_box_back_in_the_photos_pixels(degrees):
    photo = np.zeros((800, 1200, 3), np.uint8)
    photo[200:300, 800:860, 0] = 255  # an index 100 px tall; the photo is read at half size (max_side 600)
    photo[220:224, 864:868, 1] = 255  # its dot, near the top
    model = _InkModel()
    config = InferenceConfig(coarse_scale=None, index_target=None, ink_threes=False, max_side=600, turns=(degrees,), scales=())
    found = Detector(model, config.every_way()).detect(photo)
    assert model.sizes == [600, 600 if degrees == 180 else 400]  # each reading at the working size, the turned one too
    assert found and all(d.box == pytest.approx((800, 200, 860, 300), abs=2) for d in found)


def test_a_large_index_in_a_photo_read_at_half_size_is_read_again_shrunk_and_found_in_place():
    photo = np.zeros((800, 1200, 3), np.uint8)
    photo[200:400, 700:820, 0] = 255  # an index 200 px tall: 100 px at the working half size, over 64
    photo[230:238, 828:836, 1] = 255  # its dot, near the top
    model = _InkModel()
    config = InferenceConfig(coarse_scale=None, ink_threes=False, max_side=600, turns=(), scales=())
    found = Detector(model, config).detect(photo)
    assert model.sizes == [600, 288]  # at half size, then shrunk to 48 px indices: 0.24 of the photo
    assert [d.cls for d in found] == ["9"] and found[0].box == pytest.approx((700, 200, 820, 400), abs=5)


class _CentreModel:
    """Sees one unsure 7 (or `cls`, at `sure`) at the centre of whatever it is shown, however the photo is turned."""

    names = {i: n for i, n in enumerate(CLASS_NAMES)}

    def __init__(self, cls: str = "7", sure: float = 0.28) -> None:
        self.cls, self.sure = cls, sure
        self.passes = 0

    def predict(self, crops, imgsz, conf, **_):
        self.passes += 1
        rows = []
        for crop in crops:
            h, w = crop.shape[:2]
            box = [w / 2 - 10, h / 2 - 10, w / 2 + 10, h / 2 + 10, self.sure, CLASS_NAMES.index(self.cls)]
            rows.append(_Result([box] if box[4] >= conf else []))
        return rows


def test_a_box_every_reading_finds_unsurely_is_kept_unless_a_threshold_is_asked_for():
    photo = np.zeros((400, 600, 3), np.uint8)
    product = InferenceConfig(coarse_scale=None, ink_threes=False, index_target=None)
    found = Detector(_CentreModel(), product).detect(photo)
    assert [d.cls for d in found] == ["7"] and found[0].conf == pytest.approx(0.28)  # four readings of 0.28
    # the fake's box is 20 px at every scale: 26.7 of the photo's pixels at three quarters, in one reading of four
    assert found[0].box == pytest.approx((300 - 65 / 6, 200 - 65 / 6, 300 + 65 / 6, 200 + 65 / 6))
    assert Detector(_CentreModel(), product.once()).detect(photo) == []  # one reading: under 0.3
    assert Detector(_CentreModel(), product.keeping(0.3)).detect(photo) == []  # --conf 0.3 holds for the fused box
    assert product.kept_conf == 0.25 and product.keeping(0.01).kept_conf == 0.01


def test_a_box_the_readings_find_under_the_threshold_comes_back_apart_as_unsure():
    photo = np.zeros((400, 600, 3), np.uint8)
    product = InferenceConfig(coarse_scale=None, ink_threes=False, index_target=None)
    reading = Detector(_CentreModel("JOKER", 0.15), product).read(photo)
    assert reading.sure == [] and [d.cls for d in reading.unsure] == ["JOKER"]
    assert reading.unsure[0].conf == pytest.approx(0.15)
    assert Detector(_CentreModel("JOKER", 0.15), product).detect(photo) == []  # detect gives the sure boxes only
    assert Detector(_CentreModel("JOKER", 0.05), product).read(photo).unsure == []  # under unsure_conf
    assert Detector(_CentreModel("JOKER", 0.15), product.keeping(0.25)).read(photo).unsure == []  # --conf: no unsure
    sure = Detector(_CentreModel("JOKER", 0.28), product).read(photo)
    assert [d.cls for d in sure.sure] == ["JOKER"] and sure.unsure == []


def test_a_photo_is_read_the_other_ways_only_where_its_first_reading_is_unsure_of_a_box():
    photo = np.zeros((400, 600, 3), np.uint8)
    product = InferenceConfig(coarse_scale=None, ink_threes=False, index_target=None)
    sure = _CentreModel("7", 0.9)
    assert [(d.cls, round(d.conf, 3)) for d in Detector(sure, product).detect(photo)] == [("7", 0.9)]
    assert sure.passes == 1  # every box sure: one reading stands
    every = _CentreModel("7", 0.9)
    assert [d.cls for d in Detector(every, product.every_way()).detect(photo)] == ["7"] and every.passes == 4  # as mAP reads
    unsure = _CentreModel("7", 0.45)  # within recheck_band: read turned half and a quarter round, and at 0.75 too
    assert [d.cls for d in Detector(unsure, product).detect(photo)] == ["7"] and unsure.passes == 4
    lone = _CentreModel("JOKER", 0.2)  # read once it would be unsure (under fused_conf): the readings decide
    reading = Detector(lone, product).read(photo)
    assert lone.passes == 4 and reading.sure == [] and [d.cls for d in reading.unsure] == ["JOKER"]


def test_a_photo_larger_than_any_reading_is_shrunk_once_and_its_boxes_come_back_in_its_pixels():
    box = (300, 200, 315, 220)  # 20 px tall at 600 px wide: read again enlarged twice (the most)
    config = replace(ONE_READING, max_side=150)  # 150 px working, at most 300 px enlarged: half the photo
    detector = Detector(_SharpEyedModel(box, sharp=(0.0, float("inf"))), config)
    photo = np.zeros((400, 600, 3), np.uint8)
    source, scale = detector.source_of(photo)
    assert source.shape[:2] == (200, 300) and scale == pytest.approx(0.5)
    found = detector.detect(photo)
    assert detector.model.sizes == [75, 150, 300]  # as before: half size, working size, enlarged twice
    assert [d.cls for d in found] == ["9"] and found[0].box == pytest.approx(box)  # in the photo's own pixels
    small = np.zeros((100, 150, 3), np.uint8)  # no larger than the working size: read as it is, not copied
    assert detector.source_of(small)[0] is small
    assert Detector(_SharpEyedModel(box), replace(config, index_target=None)).source_of(photo)[0].shape[:2] == (100, 150)
    assert Detector(_SharpEyedModel(box), replace(config, scales=(1.5,))).source_of(photo)[0].shape[:2] == (300, 450)  # read at 1.5 too
