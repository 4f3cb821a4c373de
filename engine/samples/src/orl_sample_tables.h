// The sample ORL rig's tables (orl_sample.h): which board widget drives which
// raw expression over which interval, which ICT shape each raw expression
// drives as a blendshape channel, and the correctives. Widget names are the
// MetaHuman board's (resources/character/mh188.json, .translateY -> .ty), so
// the ARKit -> MetaHuman table reaches them.
#pragma once

#include <string>
#include <vector>

namespace riglens::samples {

inline const std::string kRawPrefix = "CTRL_expressions.";

struct OrlWidget {
  std::string gui;  // a GUI control
  float from, to, slope;
  std::string raw;  // without kRawPrefix
};
struct OrlChannel {
  std::string raw;    // the raw expression (without kRawPrefix)
  std::string shape;  // the ICT expression it drives (the channel's name)
};
struct OrlCorrective {
  const char* a;
  const char* b;        // the two raw expressions multiplied
  const char* channel;  // the corrective channel
  const char* shape;    // the ICT shape it adds, at half strength
};

inline std::vector<OrlWidget> orlWidgets() {
  std::vector<OrlWidget> w{{"CTRL_C_jaw.ty", 0, 1, 1, "jawOpen"},
                           {"CTRL_C_jaw.tx", -1, 0, -1, "jawLeft"},  // bipolar: left below zero
                           {"CTRL_C_jaw.tx", 0, 1, 1, "jawRight"},
                           {"CTRL_C_jaw_fwdBack.ty", 0, -1, -1, "jawFwd"},  // stored reversed, as DNAs may
                           {"CTRL_C_mouth.ty", 0, 1, 1, "mouthUp"}};
  for (const std::string s : {"L", "R"}) {
    const std::string c = "CTRL_" + s + "_";
    const std::vector<OrlWidget> side{
        {c + "brow_down.ty", 0, 1, 1, "browDown" + s},
        {c + "brow_raiseIn.ty", 0, 1, 1, "browRaiseIn" + s},
        {c + "brow_raiseOut.ty", 0, 1, 1, "browRaiseOuter" + s},
        {c + "eye_blink.ty", 0, 1, 1, "eyeBlink" + s},
        {c + "eye_blink.ty", -1, 0, -1, "eyeWiden" + s},
        {c + "eye.tx", 0, 1, 1, "eyeLookIn" + s},
        {c + "eye.tx", -1, 0, -1, "eyeLookOut" + s},
        {c + "eye.ty", 0, 1, 1, "eyeLookUp" + s},
        {c + "eye.ty", -1, 0, -1, "eyeLookDown" + s},
        {c + "eye_cheekRaise.ty", 0, 1, 1, "eyeCheekRaise" + s},
        {c + "eye_squintInner.ty", 0, 1, 1, "eyeSquintInner" + s},
        {c + "mouth_cornerPull.ty", 0, 1, 1, "mouthCornerPull" + s},
        {c + "mouth_sharpCornerPull.ty", 0, 1, 1, "mouthCornerPull" + s},  // a second run into the same raw
        {c + "mouth_cornerDepress.ty", 0, 1, 1, "mouthCornerDepress" + s},
        {c + "mouth_dimple.ty", 0, 1, 1, "mouthDimple" + s},
        {c + "mouth_stretch.ty", 0, 1, 1, "mouthStretch" + s},
        {c + "mouth_upperLipRaise.ty", 0, 1, 1, "mouthUpperLipRaise" + s},
        {c + "mouth_lowerLipDepress.ty", 0, 1, 1, "mouthLowerLipDepress" + s},
        {c + "mouth_pressU.ty", 0, 1, 1, "mouthPress" + s},
        {c + "nose.ty", 0, 1, 1, "noseWrinkle" + s},
        {c + "mouth_suckBlow.ty", 0, 1, 1, "mouthCheekBlow" + s},
        {c + "mouth_purseU.ty", 0, 1, 1, "mouthPurse"},
        {c + "mouth_funnelU.ty", 0, 1, 1, "mouthFunnel"},
        {c + "mouth_lipsRollU.ty", 0, 1, 1, "mouthLipsRollU"},
        {c + "mouth_lipsRollD.ty", 0, 1, 1, "mouthLipsRollD"},
        {c + "mouth_lipsTowardsTeethD.ty", 0, 1, 1, "mouthLipsTowardsTeeth"},
        {c + "mouth_lipsTogetherU.ty", 0, 1, 1, "mouthLipsTogether"}};
    w.insert(w.end(), side.begin(), side.end());
  }
  return w;
}

inline std::vector<OrlChannel> orlChannels() {
  std::vector<OrlChannel> c{{"jawFwd", "jawForward"},
                            {"mouthUp", "mouthShrugUpper"},
                            {"mouthPurse", "mouthPucker"},
                            {"mouthFunnel", "mouthFunnel"},
                            {"mouthLipsRollU", "mouthRollUpper"},
                            {"mouthLipsRollD", "mouthRollLower"},
                            {"mouthLipsTowardsTeeth", "mouthShrugLower"},
                            {"mouthLipsTogether", "mouthClose"}};
  const std::vector<std::pair<std::string, std::string>> sided{{"browDown", "browDown"},
                                                               {"browRaiseIn", "browInnerUp"},
                                                               {"browRaiseOuter", "browOuterUp"},
                                                               {"eyeBlink", "eyeBlink"},
                                                               {"eyeWiden", "eyeWide"},
                                                               {"eyeCheekRaise", "cheekSquint"},
                                                               {"eyeSquintInner", "eyeSquint"},
                                                               {"mouthCornerPull", "mouthSmile"},
                                                               {"mouthCornerDepress", "mouthFrown"},
                                                               {"mouthDimple", "mouthDimple"},
                                                               {"mouthStretch", "mouthStretch"},
                                                               {"mouthUpperLipRaise", "mouthUpperUp"},
                                                               {"mouthLowerLipDepress", "mouthLowerDown"},
                                                               {"mouthPress", "mouthPress"},
                                                               {"noseWrinkle", "noseSneer"},
                                                               {"mouthCheekBlow", "cheekPuff"}};
  for (const std::string s : {"L", "R"})
    for (const auto& [raw, shape] : sided) c.push_back({raw + s, shape + "_" + s});
  return c;
}

inline const std::vector<OrlCorrective>& orlCorrectives() {
  static const std::vector<OrlCorrective> c{
      {"jawOpen", "mouthCornerPullL", "jawOpen_mouthCornerPull_L", "mouthStretch_L"},
      {"jawOpen", "mouthCornerPullR", "jawOpen_mouthCornerPull_R", "mouthStretch_R"},
      {"eyeBlinkL", "eyeCheekRaiseL", "eyeBlink_cheekRaise_L", "eyeSquint_L"},
      {"eyeBlinkR", "eyeCheekRaiseR", "eyeBlink_cheekRaise_R", "eyeSquint_R"}};
  return c;
}

}  // namespace riglens::samples
