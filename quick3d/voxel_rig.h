// VoxelRig: a posable voxel rig as a node in any Qt Quick 3D scene, the
// analogue of the seed's three.js VoxelRig (DESIGN.md). It loads what the
// core's loader reads (a run folder, rig.json, run record or mesh.glb), makes
// one node per rig part under a hierarchy that mirrors the rig, with one
// Model per part holding its geometry, and poses by moving those nodes only:
// the geometry goes to the GPU once.
//
//   import RigLens.Quick3D
//   View3D { VoxelRig { source: "file:///runs/tank"; Component.onCompleted: setJoint("turret_yaw", 0.6) } }
//
// Posing follows the core's RigController (contract/RIG.md, "Layering"):
// caller joints set with setJoint (clamped; auto joints are refused), the
// autoPlay animations (idles) on the clock, and the one playable animation
// started with play(). The clock advances with Qt Quick's frame clock while
// `running`; `time` sets it (seconds).
//
// A skinned mesh (a rig.json beside one skinned mesh.glb, bones = parts; or
// a glTF file with its own joints, or the nodes of an exported rig as bones)
// is one Model with Qt Quick 3D's own Skin: its joints are the part nodes,
// and for bones that are no part, nodes this rig places at the glTF file's
// node worlds (its clip playing, else its rest pose). Morph targets are
// applied on the CPU when their weights change.
//
// QQuick3DNode is private API in Qt 6.4 (qquick3dnode_p.h): the module links
// Qt6::Quick3DPrivate for it and for Model, Skin and the materials.
#pragma once

#include <QtQml/qqmlregistration.h>
#include <QtQuick3D/private/qquick3dnode_p.h>

#include <QtCore/QUrl>
#include <QtCore/QVariant>
#include <memory>
#include <vector>

#include "riglens/core/open/document_files.h"

class QQuick3DModel;
class QQuick3DDefaultMaterial;
class QQuick3DCustomMaterial;
class QQuick3DPrincipledMaterial;
class QQuick3DSkin;

namespace riglens::core {
template <class T>
class Expected;
struct LoadedRun;
struct GltfPose;
class RigController;
}  // namespace riglens::core

namespace riglens::watch {
class DocumentWatcher;
}

namespace riglens::quick3d {

class RigClock;
class PartGeometry;

class VoxelRig : public QQuick3DNode {
  Q_OBJECT
  QML_ELEMENT
  Q_PROPERTY(QUrl source READ source WRITE setSource NOTIFY sourceChanged)
  Q_PROPERTY(Status status READ status NOTIFY statusChanged)
  Q_PROPERTY(QString errorString READ errorString NOTIFY statusChanged)
  Q_PROPERTY(bool asynchronous READ asynchronous WRITE setAsynchronous NOTIFY asynchronousChanged)
  Q_PROPERTY(QStringList partNames READ partNames NOTIFY modelChanged)
  Q_PROPERTY(QVariantList animations READ animations NOTIFY modelChanged)
  Q_PROPERTY(QString playing READ playing NOTIFY playingChanged)
  Q_PROPERTY(double time READ time WRITE setTime NOTIFY timeChanged)
  Q_PROPERTY(bool running READ running WRITE setRunning NOTIFY runningChanged)
  Q_PROPERTY(QString tint READ tint WRITE setTint NOTIFY tintChanged)
  Q_PROPERTY(QString highlightedPart READ highlightedPart WRITE setHighlightedPart NOTIFY tintChanged)
  Q_PROPERTY(QString look READ look WRITE setLook NOTIFY lookChanged)
  Q_PROPERTY(bool watch READ watch WRITE setWatch NOTIFY watchChanged)

 public:
  // Loading: an asynchronous load is under way (the previous model, if any, stays shown).
  enum Status { Null, Ready, Error, Loading };
  Q_ENUM(Status)

  explicit VoxelRig(QQuick3DNode* parent = nullptr);
  ~VoxelRig() override;

  QUrl source() const { return m_source; }
  void setSource(const QUrl& source);
  Status status() const { return m_status; }
  QString errorString() const { return m_error; }
  // Off (the default): setting `source` loads it before returning. On: the
  // files are read on a worker thread (status Loading meanwhile), as
  // Image.asynchronous does; only the newest source's load is adopted.
  bool asynchronous() const { return m_asynchronous; }
  void setAsynchronous(bool asynchronous);
  // Reads `source` again (its files changed on disk): the same rules as a
  // new source, so a now-broken file gives Error and keeps the model; the
  // caller joints, the animation playing, the clock and the hidden parts
  // that still exist carry over, by name.
  Q_INVOKABLE void reload();
  // Live reload (off by default): reloads when the source's files are
  // rewritten and the writes settle (riglens/watch/document_watcher.h), as
  // the viewer's File > Watch does. A reload that finds a part's mesh cut
  // short (a file still being written) keeps the model and gives Error;
  // the finished write is then adopted.
  bool watch() const { return m_watch; }
  void setWatch(bool watch);
  QStringList partNames() const;
  // [{name, period (s), loop, autoPlay}]: the rig's animations in declared
  // order, then a glTF file's own clips.
  QVariantList animations() const;
  QString playing() const;  // the playable animation now playing, or ""
  double time() const;      // the clock, seconds
  void setTime(double seconds);
  bool running() const { return m_running; }
  void setRunning(bool running);
  // The QA tints, as in the viewer: "color" (the vertex colours, lit),
  // "part" (a distinct colour per part), "joint" (the colour of the joint
  // that moves the part; caller joints warm, auto cool, unmoved grey),
  // "normals" (the world normal as a colour, unlit). Another name is ignored.
  QString tint() const { return m_tint; }
  void setTint(const QString& tint);
  // How the model is shaded, as the viewer's View -> Look: "review" (the
  // default: the tints above, under the scene's lights) or "pbr" (the
  // file's glTF materials as PrincipledMaterials, lit by the scene's lights
  // and its SceneEnvironment's light probe; pbr_materials.h says what maps).
  // The tints belong to the review look. Another name is ignored.
  QString look() const { return m_look; }
  void setLook(const QString& look);
  // A part drawn in the highlight colour's glow ("" for none).
  QString highlightedPart() const { return m_highlighted; }
  void setHighlightedPart(const QString& name);

  // Sets a caller joint (clamped to its range when posed). Unknown names,
  // auto joints and non-finite values are refused: false, errorString says why
  // (the status stays Ready).
  Q_INVOKABLE bool setJoint(const QString& name, double value);
  // "caller" (the joints a game drives) or "auto" (the ones only animations drive).
  Q_INVOKABLE QStringList jointNames(const QString& kind = QStringLiteral("caller")) const;
  // {min, max, rest, kind ("rotation"/"translation"), axis ("x"/"y"/"z")}; {} for an unknown joint.
  Q_INVOKABLE QVariantMap jointRange(const QString& name) const;
  // A joint's value in the pose shown: rest, the caller's value and the
  // animations layered, clamped (as `riglens-cli pose --json` prints it);
  // NaN for an unknown joint. poseChanged() says when to read it again.
  Q_INVOKABLE double jointValue(const QString& name) const;
  // A VRM avatar's expressions (VRM 0.x blend shape groups under their 1.0
  // names, VRM 1.0 expressions): each a weight 0..1 (clamped when posed)
  // driving the morph targets it binds, as three-vrm evaluates them. Unknown
  // names and non-finite weights are refused as setJoint refuses them.
  Q_INVOKABLE bool setExpression(const QString& name, double weight);
  Q_INVOKABLE QStringList expressionNames() const;
  // Every caller joint back to rest.
  Q_INVOKABLE void resetPose();
  // The box around the geometry as posed now, in the rig's own space (its
  // parts, bones and morph targets, as the viewer frames it): {min, max,
  // center (vector3d), radius (half the diagonal)}; {} before a model is
  // ready. A camera frames the model with it; poseChanged() says when it moves.
  Q_INVOKABLE QVariantMap posedBounds() const;
  // Starts the playable animation `name` at 0 s (false: unknown); stop() ends it.
  Q_INVOKABLE bool play(const QString& name);
  Q_INVOKABLE void stop();
  // The node of part `name` (null: no such part): its sceneTransform is the
  // part's world matrix.
  Q_INVOKABLE QQuick3DNode* partNode(const QString& name) const;
  // Shows or hides one part's geometry (its children keep their own setting).
  Q_INVOKABLE bool setPartVisible(const QString& name, bool visible);
  Q_INVOKABLE bool partVisible(const QString& name) const;

 signals:
  void sourceChanged();
  void asynchronousChanged();
  void statusChanged();
  void modelChanged();
  void playingChanged();
  void timeChanged();
  void runningChanged();
  void tintChanged();
  void lookChanged();
  void watchChanged();
  // The pose changed: a joint set, the clock ticked or set, an animation
  // started or stopped, a model loaded (every part node has moved already).
  void poseChanged();

 private:
  // How a load came (a new source, reload(), the watcher), and the stamps
  // of the files it reads, taken before it read them.
  struct LoadRequest {
    enum Kind { Source, Reload, LiveReload } kind = Source;
    std::vector<core::FileStamp> stamps;
  };
  void load(LoadRequest::Kind kind);
  void adopt(core::Expected<core::LoadedRun> loaded, const LoadRequest& request);
  void followFiles();
  void fail(const QString& message);
  void buildNodes();
  void buildSkinnedModel();
  void buildGltfJoints();
  void placeGltfJoints(const core::GltfPose& pose);
  void applyMorph(const core::GltfPose* pose);
  void clearNodes();
  void applyPose();
  void tick(double dtSeconds);
  void applyTint();
  void applyPbrLook();

  QUrl m_source;
  Status m_status = Null;
  QString m_error;
  bool m_running = true;
  bool m_asynchronous = false;
  quint64 m_loads = 0;  // numbers the loads: an older asynchronous one finishing late is dropped
  std::unique_ptr<core::LoadedRun> m_run;
  std::unique_ptr<core::RigController> m_controller;
  std::vector<QQuick3DNode*> m_partNodes;    // one per rig part; owned by the scene (children of this node)
  std::vector<QQuick3DModel*> m_partModels;  // per part, null for a socket
  std::vector<QQuick3DDefaultMaterial*> m_partMaterials;                 // per part, null for a socket
  std::vector<std::vector<QQuick3DPrincipledMaterial*>> m_pbrMaterials;  // per part, made on first use
  QQuick3DCustomMaterial* m_normalsMaterial = nullptr;                   // shared by every part
  QQuick3DCustomMaterial* m_skinnedNormalsMaterial = nullptr;            // the same for a skinned model
  // A skinned mesh: its one model (also m_partModels[0], the root part's, as
  // the viewer tints it) and geometry, its skin, the nodes of the glTF
  // joints that bones which are no part follow (per glTF node, null where
  // unused), bones with neither (never moving), and the morph weights last
  // applied.
  QQuick3DModel* m_skinnedModel = nullptr;
  PartGeometry* m_meshGeometry = nullptr;  // a model file's one mesh, skinned or not: morph targets rewrite it
  QQuick3DSkin* m_skin = nullptr;
  std::vector<QQuick3DNode*> m_gltfNodes;
  std::vector<QQuick3DNode*> m_unmovedBones;
  std::unique_ptr<core::GltfPose> m_restPose;  // a skinned glTF's rest pose (its free bones, morph weights)
  std::vector<float> m_morphWeights;
  std::vector<float> m_boneTints;  // the joint tint of a skinned mesh, per vertex (made on first use)
  QString m_tint = QStringLiteral("color");
  QString m_highlighted;
  QString m_look = QStringLiteral("review");
  std::unique_ptr<RigClock> m_clock;
  bool m_watch = false;
  watch::DocumentWatcher* m_watcher;           // a child: lives with this node
  std::vector<core::FileStamp> m_shownStamps;  // the files the shown model was read from
};

}  // namespace riglens::quick3d
