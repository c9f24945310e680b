// CustomResourceDefinitions that several tests read (written for the tests; the shape of apiextensions.k8s.io/v1).

/** crontabs.stable.example.com: v1alpha1 not served, v1beta1 deprecated with its warning, v1 the storage version with a schema. */
export const CRONTAB_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1alpha1
    served: false
    storage: false
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    deprecationWarning: "stable.example.com/v1beta1 CronTab is deprecated; migrate to v1"
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string, description: "The cron schedule."}
              replicas: {type: integer}
              policy: {type: string, enum: [Allow, Forbid]}
              template: {type: object, x-kubernetes-preserve-unknown-fields: true}
              selector: {type: object, additionalProperties: {type: string}}
`;
